import { AzureOpenAI, OpenAI } from 'openai';
import type { SecretResolver } from '../../ports/index.js';
import { TargetConfigurationError } from '../errors.js';
import type { OpenAISettings } from './openaiSettings.js';

export const OPENAI_API_BASE_URL = 'https://api.openai.com/v1';
/** Sent to an OpenAI-compatible server configured without `api_key` (vLLM, Ollama, ... ignore it). */
export const NO_API_KEY = 'no-api-key';

/** Microsoft Entra ID bearer tokens for Azure OpenAI (scope https://cognitiveservices.azure.com/.default), called per request. */
export type AzureADTokenProvider = () => Promise<string>;

/**
 * Checks what can be checked without I/O: Azure needs `base_url` (the resource endpoint), `api_version`, and
 * either an Entra ID token provider from the host or `api_key`; the OpenAI API itself needs `api_key` (a
 * compatible server at `base_url` may do without).
 */
export function checkClientSettings(settings: OpenAISettings, targetId: string, entraId = false): void {
  const fail = (setting: string, message: string) => new TargetConfigurationError(setting, `target ${targetId}: ${message}`);
  if (settings.azure) {
    if (!settings.base_url)
      throw fail(
        'settings.base_url',
        'settings.base_url (the Azure OpenAI resource endpoint, https://<name>.openai.azure.com) is required when settings.azure is true',
      );
    if (!settings.api_version)
      throw fail('settings.api_version', 'settings.api_version is required when settings.azure is true (e.g. "2024-10-21")');
    if (!settings.api_key && !entraId) {
      throw fail(
        'settings.api_key',
        'settings.api_key is required for Azure OpenAI on this host (keyless Microsoft Entra ID auth needs a host that supplies a token provider, such as the Azure backend)',
      );
    }
  } else if (!settings.api_key && !settings.base_url) {
    throw fail(
      'settings.api_key',
      `settings.api_key is required for the OpenAI API (${OPENAI_API_BASE_URL}); set settings.base_url for a compatible server without a key`,
    );
  }
}

/**
 * Builds the client the settings describe, resolving the API key once. `AzureOpenAI` when `azure` (deployment =
 * `model`, `api-version` query; `Authorization: Bearer` from the Entra ID token provider, or the `api-key` header
 * when `api_key` is set: the explicit fallback wins), `OpenAI` otherwise. Every value is explicit (process.env is
 * never read behind the caller's back) and the client's own retries are off: ResilientTarget retries.
 */
export async function createOpenAIClient(
  settings: OpenAISettings,
  secrets: SecretResolver,
  targetId: string,
  azureADTokenProvider?: AzureADTokenProvider,
  fetch?: typeof globalThis.fetch,
): Promise<OpenAI> {
  checkClientSettings(settings, targetId, Boolean(azureADTokenProvider));
  let apiKey = NO_API_KEY;
  if (settings.api_key) {
    try {
      apiKey = await secrets.resolve(settings.api_key);
    } catch (error) {
      throw new TargetConfigurationError(
        'settings.api_key',
        `target ${targetId}: settings.api_key cannot be resolved: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  if (settings.azure) {
    const base = settings.base_url!.replace(/\/+$/, '');
    return new AzureOpenAI({
      baseURL: base.endsWith('/openai') ? base : `${base}/openai`,
      deployment: settings.model,
      apiVersion: settings.api_version!,
      // an empty apiKey (not undefined) keeps the SDK from reading AZURE_OPENAI_API_KEY from process.env
      ...(settings.api_key || !azureADTokenProvider ? { apiKey } : { azureADTokenProvider, apiKey: '' }),
      organization: null,
      project: null,
      maxRetries: 0,
      ...(fetch ? { fetch } : {}),
    });
  }
  return new OpenAI({
    apiKey,
    baseURL: settings.base_url ?? OPENAI_API_BASE_URL,
    organization: null,
    project: null,
    maxRetries: 0,
    ...(fetch ? { fetch } : {}),
    ...(settings.api_version ? { defaultQuery: { 'api-version': settings.api_version } } : {}),
  });
}
