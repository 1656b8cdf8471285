import { AzureOpenAI, OpenAI } from 'openai';

/** Settings the OpenAI judge reads (names as in local.settings.json / app settings). */
export const OPENAI_SETTINGS = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_ORG_ID',
  'OPENAI_PROJECT_ID',
  'AZURE_OPENAI_ENDPOINT',
  'AZURE_OPENAI_DEPLOYMENT',
  'AZURE_OPENAI_API_VERSION',
  'AZURE_OPENAI_API_KEY',
] as const;
export type OpenAISettingName = (typeof OPENAI_SETTINGS)[number];
export type SettingsSource = Readonly<Record<string, string | undefined>>;

/** Broken configuration: thrown at start-up, never per case. `missing` names the settings to provide. */
export class JudgeConfigurationError extends Error {
  readonly missing: string[];
  constructor(message: string, missing: string[] = []) {
    super(message);
    this.name = 'JudgeConfigurationError';
    this.missing = missing;
  }
}

export interface JudgeClient {
  client: OpenAI;
  kind: 'openai' | 'azure-openai';
  /** the deployment name (Azure), to use as model when none is configured */
  deployment?: string;
}

const value = (env: SettingsSource, name: OpenAISettingName) => env[name]?.trim() || undefined;

export interface JudgeClientOptions {
  /** Microsoft Entra ID bearer tokens for Azure OpenAI (scope https://cognitiveservices.azure.com/.default), called per request */
  azureADTokenProvider?: () => Promise<string>;
}

/**
 * Builds the client from settings. Azure OpenAI when AZURE_OPENAI_ENDPOINT is set (then AZURE_OPENAI_DEPLOYMENT and
 * AZURE_OPENAI_API_VERSION are required), authenticated with Microsoft Entra ID through `azureADTokenProvider` (the
 * host passes one: `azureOpenAITokenProvider()` in lib/adapters/azure), or with AZURE_OPENAI_API_KEY when that is set
 * (the explicit fallback: a key wins over the token provider). Otherwise OpenAI (OPENAI_API_KEY, optional
 * OPENAI_BASE_URL for compatible servers). Every value is passed explicitly so process.env is never read behind
 * the caller's back. The client's own retries are off (`maxRetries: 0`): the judge's retry loop is the only one.
 */
export function createJudgeClient(env: SettingsSource, options: JudgeClientOptions = {}): JudgeClient {
  const endpoint = value(env, 'AZURE_OPENAI_ENDPOINT');
  if (endpoint) {
    const apiKey = value(env, 'AZURE_OPENAI_API_KEY');
    const tokenProvider = apiKey ? undefined : options.azureADTokenProvider;
    const required = [
      'AZURE_OPENAI_DEPLOYMENT',
      'AZURE_OPENAI_API_VERSION',
      ...(apiKey || tokenProvider ? [] : (['AZURE_OPENAI_API_KEY'] as const)),
    ] as const;
    const missing = required.filter((name) => !value(env, name));
    if (missing.length) {
      throw new JudgeConfigurationError(
        `the openai judge uses Azure OpenAI because AZURE_OPENAI_ENDPOINT is set, but ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set` +
          (missing.includes('AZURE_OPENAI_API_KEY')
            ? ' (and this host supplies no Microsoft Entra ID token provider: keyless auth needs the Azure backend or a host that passes azureADTokenProvider)'
            : ''),
        missing,
      );
    }
    assertUrl('AZURE_OPENAI_ENDPOINT', endpoint);
    const deployment = value(env, 'AZURE_OPENAI_DEPLOYMENT')!;
    const client = new AzureOpenAI({
      baseURL: `${endpoint.replace(/\/+$/, '')}/openai`,
      deployment,
      apiVersion: value(env, 'AZURE_OPENAI_API_VERSION')!,
      // an empty apiKey (not undefined) keeps the SDK from reading AZURE_OPENAI_API_KEY from process.env
      ...(tokenProvider ? { azureADTokenProvider: tokenProvider, apiKey: '' } : { apiKey: apiKey! }),
      organization: null,
      project: null,
      maxRetries: 0,
    });
    return { client, kind: 'azure-openai', deployment };
  }
  const apiKey = value(env, 'OPENAI_API_KEY');
  if (!apiKey) {
    throw new JudgeConfigurationError(
      'the openai judge needs OPENAI_API_KEY (or, for Azure OpenAI, AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_DEPLOYMENT, AZURE_OPENAI_API_VERSION and AZURE_OPENAI_API_KEY)',
      ['OPENAI_API_KEY'],
    );
  }
  const baseURL = value(env, 'OPENAI_BASE_URL') ?? 'https://api.openai.com/v1';
  assertUrl('OPENAI_BASE_URL', baseURL);
  const client = new OpenAI({
    apiKey,
    baseURL,
    organization: value(env, 'OPENAI_ORG_ID') ?? null,
    project: value(env, 'OPENAI_PROJECT_ID') ?? null,
    maxRetries: 0,
  });
  return { client, kind: 'openai' };
}

function assertUrl(name: OpenAISettingName, text: string): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new JudgeConfigurationError(`${name} is not a URL: ${JSON.stringify(text)}`, [name]);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new JudgeConfigurationError(`${name} must be an http(s) URL, got ${JSON.stringify(text)}`, [name]);
  }
}
