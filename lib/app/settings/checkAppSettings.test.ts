import { describe, expect, it } from 'vitest';
import { AppSettingsError, checkAppSettings, type SettingsSource } from './checkAppSettings.js';

/** The least the Azure backend starts with. */
const AZURE: SettingsSource = {
  EVALP_BACKEND: 'azure',
  COSMOS_DATABASE_NAME: 'evalplatform',
  CosmosConnection__accountEndpoint: 'https://acct.documents.azure.com:443/',
  ServiceBusConnection__fullyQualifiedNamespace: 'ns.servicebus.windows.net',
  AzureWebJobsStorage__accountName: 'evalpstorage',
  EVALP_TASK_HUB: 'EvalPlatformHub',
};

function problems(env: SettingsSource, options: { backend?: 'azure' | 'embedded' } = {}): Array<[string, string]> {
  try {
    checkAppSettings(env, options);
    return [];
  } catch (error) {
    if (!(error instanceof AppSettingsError)) throw error;
    return error.problems.map((p) => [p.setting, p.message]);
  }
}

describe('checkAppSettings', () => {
  it.each<[string, SettingsSource]>([
    ['an empty environment (embedded)', {}],
    ['the Azure minimum', AZURE],
    ['blank values count as unset', { ...AZURE, EVALP_SCORECARD_TTL_SECONDS: '  ', EVALP_SEARCH_ENDPOINT: '' }],
    [
      'the connection-string fallbacks',
      {
        ...AZURE,
        ServiceBusConnection__fullyQualifiedNamespace: undefined,
        ServiceBusConnection: 'Endpoint=sb://x/;SharedAccessKeyName=k;SharedAccessKey=s',
        AzureWebJobsStorage__accountName: undefined,
        AzureWebJobsStorage: 'UseDevelopmentStorage=true',
      },
    ],
    [
      'AI Search with its embeddings',
      {
        ...AZURE,
        EVALP_SEARCH_ENDPOINT: 'https://s.search.windows.net',
        AZURE_OPENAI_ENDPOINT: 'https://o.openai.azure.com',
        AZURE_OPENAI_EMBEDDINGS_DEPLOYMENT: 'emb',
        AZURE_OPENAI_API_VERSION: '2024-10-21',
      },
    ],
  ])('accepts %s', (_label, env) => {
    expect(problems(env)).toEqual([]);
  });

  it('parses values: numbers coerced, the backend, unknown environment variables ignored', () => {
    const settings = checkAppSettings({
      ...AZURE,
      EVALP_SCORECARD_TTL_SECONDS: '604800',
      EVALP_EMBEDDINGS_DIMENSIONS: '3072',
      PATH: '/usr/bin',
    });
    expect([
      settings.EVALP_BACKEND,
      settings.EVALP_SCORECARD_TTL_SECONDS,
      settings.EVALP_EMBEDDINGS_DIMENSIONS,
      'PATH' in settings,
    ]).toEqual(['azure', 604_800, 3_072, false]);
  });

  it('names every setting the Azure backend misses, at once, with what it is for', () => {
    expect(problems({ EVALP_BACKEND: 'azure' }).map(([setting, message]) => [setting, message.split(':')[0]])).toEqual([
      ['COSMOS_DATABASE_NAME', 'required when EVALP_BACKEND=azure'],
      ['CosmosConnection__accountEndpoint', 'required when EVALP_BACKEND=azure'],
      ['ServiceBusConnection__fullyQualifiedNamespace', 'required when EVALP_BACKEND=azure (or ServiceBusConnection)'],
      ['AzureWebJobsStorage', 'required when EVALP_BACKEND=azure (or AzureWebJobsStorage__accountName)'],
      ['EVALP_TASK_HUB', 'required when EVALP_BACKEND=azure'],
    ]);
    expect(problems({}, { backend: 'azure' })).toHaveLength(5);
  });

  it.each<[string, SettingsSource, string[]]>([
    ['a backend that does not exist', { EVALP_BACKEND: 'aws' }, ['EVALP_BACKEND']],
    [
      'an endpoint that is not a URL',
      { ...AZURE, CosmosConnection__accountEndpoint: 'acct.documents.azure.com' },
      ['CosmosConnection__accountEndpoint'],
    ],
    ['a TTL that is not a positive integer', { ...AZURE, EVALP_SCORECARD_TTL_SECONDS: '-5' }, ['EVALP_SCORECARD_TTL_SECONDS']],
    ['a task hub name with a dash', { ...AZURE, EVALP_TASK_HUB: 'eval-hub' }, ['EVALP_TASK_HUB']],
    ['a client id that is not a GUID', { ...AZURE, AZURE_CLIENT_ID: 'my-identity' }, ['AZURE_CLIENT_ID']],
    [
      'AI Search without its embeddings deployment',
      { ...AZURE, EVALP_SEARCH_ENDPOINT: 'https://s.search.windows.net' },
      ['AZURE_OPENAI_ENDPOINT', 'AZURE_OPENAI_EMBEDDINGS_DEPLOYMENT', 'AZURE_OPENAI_API_VERSION'],
    ],
    [
      'Entra ID auth without an audience (the API security rules)',
      { EVALP_AUTH_ENTRA_TENANT_ID: 'contoso.onmicrosoft.com' },
      ['EVALP_AUTH_ENTRA_AUDIENCE'],
    ],
    ["two malformed settings (in the table's order)", { EVALP_PORT: 'http', EVALP_OTEL: 'loud' }, ['EVALP_OTEL', 'EVALP_PORT']],
  ])('refuses %s, naming it', (_label, env, settings) => {
    expect(problems(env).map(([setting]) => setting)).toEqual(settings);
  });

  it('never echoes a value (some are secrets)', () => {
    const secret = 'AccountKey=do-not-print-me';
    try {
      checkAppSettings({ EVALP_BACKEND: 'azure', CosmosConnection__accountEndpoint: secret });
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('do-not-print-me');
      expect((error as Error).message).toMatch(/^invalid app settings \(5\):\n {2}- CosmosConnection__accountEndpoint: malformed/m);
    }
  });
});
