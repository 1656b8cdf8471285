import { z } from 'zod';
import { ApiSecurityEnvSchema } from '../../api/index.js';

/** Where a setting is read: by the function app in Azure, by the embedded host, or by both. */
export type SettingScope = 'azure' | 'embedded' | 'both';

export interface AppSettingSpec {
  /** the value's format (a blank value counts as unset) */
  schema: z.ZodType;
  scope: SettingScope;
  /** what local.settings.sample.json holds: a placeholder or a working local value */
  sample: string;
  description: string;
}

const blankIsUnset = (value: unknown): unknown => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankIsUnset, schema.optional());
const text = optional(z.string());
const url = optional(z.url());
const guid = optional(
  z.string().regex(/^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/, 'a GUID (client id of a user-assigned managed identity)'),
);
const count = (min: number) => optional(z.coerce.number().int().min(min));
const security = ApiSecurityEnvSchema.shape;

const spec = <S extends z.ZodType>(scope: SettingScope, schema: S, sample: string, description: string) => ({
  schema,
  scope,
  sample,
  description,
});

/**
 * Every app setting the platform reads (environment variables on the embedded host, app settings in Azure), once:
 * its format, where it is read, a sample value and what it does. The startup check (checkAppSettings.ts) validates
 * them; local.settings.sample.json lists exactly these (a test keeps both in step, and another scans the code
 * for setting names missing here).
 */
export const APP_SETTINGS = {
  // which backend
  EVALP_BACKEND: spec(
    'both',
    optional(z.enum(['embedded', 'azure'])),
    'azure',
    '`azure`: stores on Cosmos DB, queues on Service Bus (lib/app/azure.ts); default `embedded` (SQLite)',
  ),
  FUNCTIONS_WORKER_RUNTIME: spec('azure', optional(z.literal('node')), 'node', 'the Functions language worker: `node`'),
  AzureWebJobsStorage: spec(
    'azure',
    text,
    'UseDevelopmentStorage=true',
    'the host storage (Durable task hub, timers): Azurite locally; a connection string is the fallback',
  ),
  AzureWebJobsStorage__accountName: spec(
    'azure',
    text,
    '',
    'identity-based host storage in Azure (the storage account name), instead of AzureWebJobsStorage',
  ),
  EVALP_TASK_HUB: spec(
    'azure',
    optional(z.string().regex(/^[A-Za-z][A-Za-z0-9]{2,44}$/, '3-45 letters and digits, starting with a letter')),
    'EvalPlatformHub',
    'the Durable Functions task hub name (host.json extensions.durableTask.hubName)',
  ),
  // Cosmos DB
  COSMOS_DATABASE_NAME: spec(
    'both',
    text,
    'evalplatform',
    'the Cosmos DB database of every container (the change-feed trigger reads %COSMOS_DATABASE_NAME%)',
  ),
  CosmosConnection__accountEndpoint: spec(
    'azure',
    url,
    'https://<account>.documents.azure.com:443/',
    'Cosmos DB account endpoint, identity-based (DefaultAzureCredential; role Cosmos DB Built-in Data Contributor)',
  ),
  CosmosConnection__credential: spec(
    'azure',
    optional(z.literal('managedidentity')),
    '',
    "`managedidentity` in Azure (the change-feed trigger uses the app's identity); empty locally: your developer login",
  ),
  CosmosConnection__clientId: spec(
    'azure',
    guid,
    '',
    'client id of a user-assigned managed identity (trigger and SDK); empty: system-assigned or your developer login',
  ),
  CosmosConnection__accountKey: spec(
    'azure',
    text,
    '',
    'fallback only: an account key instead of Entra ID (documented; infra/ never sets it)',
  ),
  EVALP_SCORECARD_TTL_SECONDS: spec(
    'azure',
    count(1),
    '',
    'scorecards (and counted outcomes) expire this many seconds after their last write; empty: never',
  ),
  // retention and housekeeping (lib/runs/retention, functions/timers/housekeeping.ts)
  EVALP_RETENTION_DAYS: spec(
    'both',
    count(1),
    '',
    "platform retention: a finished run's scorecards, audit records and artifacts are deleted this many days after it finished (run and statistics kept); empty: kept forever",
  ),
  EVALP_EVALUATE_JOB_RETENTION_DAYS: spec(
    'both',
    count(1),
    '',
    '/api/evaluate jobs (their run, scorecards, suite, target, cases) are deleted this many days after they finished (default 30)',
  ),
  // analytics export (lib/reports/analyticsParquet.ts, functions/queues/analyticsExport.ts)
  EVALP_ANALYTICS_EXPORT: spec(
    'both',
    optional(z.enum(['on', 'off'])),
    '',
    '`off`: completed runs are not written as analytics tables (default on embedded; in Azure on when EVALP_ANALYTICS_BLOB_ENDPOINT is set)',
  ),
  EVALP_ANALYTICS_DIR: spec('embedded', text, '', 'embedded: the analytics export folder (default <data dir>/exports)'),
  EVALP_ANALYTICS_BLOB_ENDPOINT: spec(
    'azure',
    url,
    '',
    'Blob endpoint for analytics tables: https://<account>.blob.core.windows.net or https://onelake.blob.fabric.microsoft.com (Entra ID)',
  ),
  EVALP_ANALYTICS_BLOB_CONTAINER: spec(
    'azure',
    text,
    'analytics',
    'the container (OneLake: the workspace) of analytics tables (default analytics)',
  ),
  EVALP_ANALYTICS_BLOB_PREFIX: spec(
    'azure',
    text,
    '',
    'a path prefix inside the container (OneLake: <lakehouse>.Lakehouse/Files/evalplatform)',
  ),
  // Service Bus (lib/adapters/azure/serviceBusClient.ts)
  ServiceBusConnection__fullyQualifiedNamespace: spec(
    'azure',
    optional(z.string().regex(/^[A-Za-z0-9.-]+$/, 'a host name such as <namespace>.servicebus.windows.net')),
    '<namespace>.servicebus.windows.net',
    'Service Bus namespace, identity-based (queue triggers and the queue port)',
  ),
  ServiceBusConnection__credential: spec(
    'azure',
    optional(z.literal('managedidentity')),
    '',
    "`managedidentity` in Azure (the queue triggers use the app's identity); empty locally: your developer login",
  ),
  ServiceBusConnection__clientId: spec('azure', guid, '', 'client id of a user-assigned managed identity for Service Bus'),
  ServiceBusConnection: spec('azure', text, '', 'fallback only: a Service Bus connection string (used when no namespace is set)'),
  // AI Search (gold-set index) and embeddings
  EVALP_SEARCH_ENDPOINT: spec(
    'azure',
    url,
    '',
    'Azure AI Search endpoint (https://<service>.search.windows.net): full-text `q` and near-duplicates go to the gold-set index; empty: Cosmos DB CONTAINS and a trigram scan',
  ),
  EVALP_SEARCH_INDEX: spec(
    'azure',
    optional(z.string().regex(/^[a-z0-9][a-z0-9-]{1,127}$/, 'lowercase letters, digits and dashes')),
    'gold-set',
    'the gold-set index name (default gold-set)',
  ),
  EVALP_SEARCH_API_KEY: spec(
    'azure',
    text,
    '',
    'fallback only: an AI Search admin key instead of Entra ID (role Search Index Data Contributor)',
  ),
  AZURE_OPENAI_EMBEDDINGS_DEPLOYMENT: spec(
    'azure',
    text,
    'text-embedding-3-small',
    'the Azure OpenAI embeddings deployment for the gold-set index vectors (needed with EVALP_SEARCH_ENDPOINT)',
  ),
  EVALP_EMBEDDINGS_DIMENSIONS: spec('azure', count(2), '1536', 'vector dimensions of that deployment (default 1536)'),
  // secrets and identity
  EVALP_KEY_VAULT_URL: spec(
    'azure',
    url,
    '',
    'Key Vault for `{"keyvault": "name"}` secret references of targets (https://<vault>.vault.azure.net; role Key Vault Secrets User)',
  ),
  EVALP_PUBLIC_URL: spec(
    'azure',
    url,
    '',
    'where the API answers publicly (API Management or the function app URL), for links in alerts and status URLs',
  ),
  AZURE_CLIENT_ID: spec(
    'azure',
    guid,
    '',
    'client id of a user-assigned managed identity for DefaultAzureCredential (Cosmos DB, AI Search, Key Vault, Azure OpenAI)',
  ),
  // the semantic judge (lib/judges/openai/openaiClient.ts OPENAI_SETTINGS)
  OPENAI_API_KEY: spec('both', text, '', 'the OpenAI judge (semantics.judge "openai") on api.openai.com or a compatible server'),
  OPENAI_BASE_URL: spec('both', url, '', 'an OpenAI-compatible server for the judge'),
  OPENAI_ORG_ID: spec('both', text, '', 'OpenAI organization for the judge'),
  OPENAI_PROJECT_ID: spec('both', text, '', 'OpenAI project for the judge'),
  AZURE_OPENAI_ENDPOINT: spec(
    'both',
    url,
    'https://<resource>.openai.azure.com',
    'Azure OpenAI for the judge (and the embeddings): Entra ID tokens, role Cognitive Services OpenAI User',
  ),
  AZURE_OPENAI_DEPLOYMENT: spec('both', text, 'gpt-4.1-mini', "the judge's chat deployment"),
  AZURE_OPENAI_API_VERSION: spec('both', text, '2024-10-21', 'Azure OpenAI API version'),
  AZURE_OPENAI_API_KEY: spec('both', text, '', 'fallback only: an Azure OpenAI key instead of Entra ID'),
  // API security (lib/api/apiSecuritySettings.ts)
  EVALP_AUTH_API_KEYS: spec('both', security.EVALP_AUTH_API_KEYS, 'on', '`off` refuses API keys (Entra ID only)'),
  EVALP_AUTH_ENTRA_TENANT_ID: spec('both', security.EVALP_AUTH_ENTRA_TENANT_ID, '', 'accept Entra ID bearer tokens of this tenant'),
  EVALP_AUTH_ENTRA_AUDIENCE: spec(
    'both',
    security.EVALP_AUTH_ENTRA_AUDIENCE,
    '',
    'accepted audiences (comma-separated): the Application ID URI and/or client id',
  ),
  EVALP_AUTH_ENTRA_ISSUER: spec(
    'both',
    security.EVALP_AUTH_ENTRA_ISSUER,
    '',
    "accepted issuers (comma-separated; default: the tenant's v1 and v2 issuers)",
  ),
  EVALP_AUTH_ENTRA_JWKS_URL: spec('both', security.EVALP_AUTH_ENTRA_JWKS_URL, '', 'JWKS override (sovereign clouds, tests)'),
  EVALP_AUTH_ENTRA_ORG_CLAIM: spec(
    'both',
    security.EVALP_AUTH_ENTRA_ORG_CLAIM,
    '',
    "the token claim naming the caller's organization (default evalp_org; lib/tenancy)",
  ),
  EVALP_AUTH_ENTRA_ORGANIZATIONS: spec(
    'both',
    security.EVALP_AUTH_ENTRA_ORGANIZATIONS,
    '',
    'organizations of tokens without the claim, by object id, client id or tenant id (docs/api.md "Organizations")',
  ),
  EVALP_AUTH_ENTRA_CLOCK_SKEW_SECONDS: spec('both', security.EVALP_AUTH_ENTRA_CLOCK_SKEW_SECONDS, '', 'clock tolerance for token times'),
  EVALP_DASHBOARD_ENTRA_CLIENT_ID: spec(
    'both',
    text,
    '',
    "the dashboard's Entra ID SPA app registration (client id): the dashboard offers Entra sign-in (MSAL) when this and EVALP_AUTH_ENTRA_TENANT_ID are set",
  ),
  EVALP_DASHBOARD_ENTRA_SCOPES: spec(
    'both',
    text,
    '',
    'scopes the dashboard asks for (comma-separated; default api://<first EVALP_AUTH_ENTRA_AUDIENCE>/.default)',
  ),
  EVALP_API_RATE_LIMIT_RPS: spec('both', security.EVALP_API_RATE_LIMIT_RPS, '', 'requests per second per caller (0: no limit)'),
  EVALP_API_RATE_LIMIT_BURST: spec('both', security.EVALP_API_RATE_LIMIT_BURST, '', 'burst size of the per-caller token bucket'),
  EVALP_AUTH_FAILURES_PER_MINUTE: spec(
    'both',
    security.EVALP_AUTH_FAILURES_PER_MINUTE,
    '',
    'failed authentication attempts a source may make per minute (default 10), then 429',
  ),
  EVALP_AUTH_FAILURES_BURST: spec(
    'both',
    security.EVALP_AUTH_FAILURES_BURST,
    '',
    'failed attempts in a row before that limit applies (default 20)',
  ),
  // circuit breaker per target (lib/app/breakerSettings.ts) and the run watchdog (functions/timers/runWatchdog.ts)
  EVALP_CIRCUIT_FAILURE_THRESHOLD: spec('both', count(1), '', "failed cases in a row that open a target's circuit (default 5)"),
  EVALP_CIRCUIT_OPEN_MS: spec('both', count(1), '', 'how long an open circuit defers cases before one probe (default 30000)'),
  EVALP_STALL_AFTER_MINUTES: spec('both', count(1), '', 'a running run with no progress for this long is marked stalled (default 10)'),
  // reference metrics (lib/app/referenceEmbedder.ts)
  EVALP_EMBEDDINGS_MODEL: spec(
    'both',
    text,
    '',
    'embedding model of the embedding-cosine reference metric (OpenAI; Azure uses the embeddings deployment)',
  ),
  // outbound URL policy (lib/outbound/outboundSettings.ts)
  EVALP_OUTBOUND_ALLOW: spec(
    'both',
    text,
    '',
    'destinations targets and webhooks may reach besides public addresses: loopback, private, link-local, hosts, CIDRs, or none (default: loopback embedded, none in Azure; metadata never)',
  ),
  EVALP_OUTBOUND_DENY: spec('both', text, '', 'host names or CIDRs outbound calls may never reach'),
  // regression alert webhooks (lib/alerts/notify/deliveryOptionsFromEnv.ts)
  EVALP_ALERT_WEBHOOK_MAX_RETRIES: spec('both', count(0), '', 'webhook delivery retries'),
  EVALP_ALERT_WEBHOOK_RETRY_DELAY_MS: spec('both', count(0), '', 'first retry delay (doubles)'),
  EVALP_ALERT_WEBHOOK_MAX_RETRY_DELAY_MS: spec('both', count(0), '', 'retry delay cap'),
  EVALP_ALERT_WEBHOOK_TIMEOUT_MS: spec('both', count(0), '', 'per-attempt timeout'),
  // e-mail notifications of alerts and finished runs (lib/alerts/notify/email; evalplatform.config.yaml notifications.email)
  EVALP_EMAIL_FROM: spec('both', optional(z.email()), '', 'sender of alert and finished-run e-mails; unset: no e-mail is sent'),
  EVALP_EMAIL_RUN_FINISHED: spec('both', optional(z.enum(['true', 'false'])), '', '`false`: e-mail alerts only, not finished runs'),
  EVALP_SMTP_HOST: spec('embedded', text, '', 'embedded: the SMTP server of e-mails (nodemailer)'),
  EVALP_SMTP_PORT: spec('embedded', count(1), '', 'embedded: SMTP port (default 587)'),
  EVALP_SMTP_SECURE: spec('embedded', optional(z.enum(['true', 'false'])), '', 'embedded: `true` = TLS from the start (port 465)'),
  EVALP_SMTP_USER: spec('embedded', text, '', 'embedded: SMTP user'),
  EVALP_SMTP_PASSWORD: spec('embedded', text, '', 'embedded: SMTP password'),
  EVALP_ACS_EMAIL_ENDPOINT: spec('azure', url, '', 'Azure Communication Services endpoint for e-mail (managed identity)'),
  EVALP_ACS_EMAIL_CONNECTION_STRING: spec('azure', text, '', 'fallback only: an ACS connection string instead of Entra ID'),
  // telemetry (lib/telemetry/setup.ts TELEMETRY_SETTINGS)
  APPLICATIONINSIGHTS_CONNECTION_STRING: spec('both', text, '', 'Application Insights (OpenTelemetry through Azure Monitor); empty: off'),
  APPLICATIONINSIGHTS_AUTHENTICATION_STRING: spec('both', text, '', '`Authorization=AAD` (+ `;ClientId=...`): Entra ID ingestion'),
  EVALP_OTEL: spec('both', optional(z.enum(['console', 'off'])), '', '`console` prints spans (embedded)'),
  EVALP_OTEL_SAMPLING_RATIO: spec('both', optional(z.coerce.number().min(0).max(1)), '', 'trace sampling ratio 0-1'),
  // the embedded host (`npm start`)
  EVALP_DATA_DIR: spec('embedded', text, '', 'embedded: all state (one SQLite file), default ./.evalplatform'),
  EVALP_PORT: spec(
    'embedded',
    optional(z.coerce.number().int().min(0).max(65_535)),
    '',
    'embedded: HTTP port (default 7071; 0 picks a free one)',
  ),
  EVALP_DEMO: spec('embedded', optional(z.enum(['on', 'off'])), '', 'embedded: `off` starts without the retail demo'),
  EVALP_LOG_LEVEL: spec('embedded', text, '', 'embedded: host log level on stderr (warning, information, debug, ...)'),
  EVALP_FUNCTION_KEY: spec('embedded', text, '', 'embedded: key for authLevel function (default: random per start)'),
  EVALP_DEBUG: spec('embedded', text, '', 'evalp CLI: `1` prints the stack trace of an error'),
  EVALP_ADMIN_KEY: spec('embedded', text, '', 'embedded: key for authLevel admin (default: the function key)'),
  EVALP_DURABLE_TASK_KEY: spec(
    'embedded',
    text,
    '',
    'embedded: the system key of /runtime/webhooks/durabletask (default: random per start)',
  ),
} as const satisfies Record<string, AppSettingSpec>;

export type AppSettingName = keyof typeof APP_SETTINGS;
export const APP_SETTING_NAMES = Object.keys(APP_SETTINGS) as AppSettingName[];
