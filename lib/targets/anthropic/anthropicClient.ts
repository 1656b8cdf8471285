import { Anthropic } from '@anthropic-ai/sdk';
import type { AnthropicTargetSettings } from '../../domain/index.js';
import type { SecretResolver } from '../../ports/index.js';
import { describeError, TargetConfigurationError } from '../errors.js';

const ANTHROPIC_API = 'https://api.anthropic.com';

/**
 * A Messages API client for the settings: `base_url` (default Anthropic's; any Anthropic-compatible endpoint such as
 * Claude on Azure AI Foundry, `https://<resource>.services.ai.azure.com/anthropic`), the key from `api_key` in the
 * header `api_key_header` names (`x-api-key` by default; `authorization` sends `Bearer <key>`). Without a key a
 * compatible server gets the placeholder `no-api-key`; Anthropic's own API requires one. Client retries are off
 * (ResilientTarget retries) and no credential is read from the environment or disk.
 */
export async function createAnthropicClient(
  settings: AnthropicTargetSettings,
  secrets: SecretResolver,
  targetId: string,
): Promise<Anthropic> {
  const baseURL = settings.base_url ?? ANTHROPIC_API;
  let key = 'no-api-key';
  if (settings.api_key) {
    try {
      key = await secrets.resolve(settings.api_key);
    } catch (error) {
      throw new TargetConfigurationError('settings.api_key', `target ${targetId}: settings.api_key: ${describeError(error)}`, {
        cause: error,
      });
    }
  } else if (new URL(baseURL).hostname === 'api.anthropic.com') {
    throw new TargetConfigurationError(
      'settings.api_key',
      `target ${targetId}: settings.api_key is required by the Anthropic API (a reference such as {"env": "ANTHROPIC_API_KEY"})`,
    );
  }
  const header = settings.api_key_header;
  const defaultHeaders: Record<string, string | null> = {
    ...(header === 'authorization' ? {} : { Authorization: null, [header]: key }),
    ...(settings.anthropic_version ? { 'anthropic-version': settings.anthropic_version } : {}),
  };
  return new Anthropic({ apiKey: key, baseURL, maxRetries: 0, defaultHeaders });
}
