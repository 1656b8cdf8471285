/** The type of a configuration value (environment variables and flags are text, converted by this). */
export type ConfigValueKind = 'string' | 'number' | 'boolean';

/**
 * One key of the configuration: where it lives in `evalplatform.config.yaml` (`path`), the environment variable
 * and the CLI flag that override it, its default, whether it is a secret (masked by `evalp config show`), who
 * reads it (`cli`: the evalp command; `platform`: the platform at start, from the file when the variable is unset),
 * and whether `clients.<id>` may override it.
 */
export interface ConfigKey {
  path: string;
  kind: ConfigValueKind;
  env?: string;
  flag?: string;
  default?: string | number | boolean;
  secret?: boolean;
  reader: 'cli' | 'platform';
  perClient?: boolean;
  description: string;
}

/** Every key, in the order `evalp config show` prints them. Precedence: environment > flag > file > default. */
export const CONFIG_KEYS: readonly ConfigKey[] = [
  {
    path: 'connection.url',
    kind: 'string',
    env: 'EVALP_URL',
    flag: '--url',
    default: 'http://127.0.0.1:7071',
    reader: 'cli',
    description: 'platform URL',
  },
  { path: 'connection.key', kind: 'string', env: 'EVALP_API_KEY', flag: '--key', secret: true, reader: 'cli', description: 'API key' },
  {
    path: 'profile',
    kind: 'string',
    env: 'EVALP_PROFILE',
    flag: '--profile',
    reader: 'cli',
    perClient: true,
    description: 'stage profile of submitted runs',
  },
  {
    path: 'thresholds.fail_under',
    kind: 'number',
    env: 'EVALP_FAIL_UNDER',
    flag: '--fail-under',
    reader: 'cli',
    perClient: true,
    description: 'evaluate: exit 1 below this pass rate',
  },
  {
    path: 'thresholds.fail_on',
    kind: 'string',
    env: 'EVALP_FAIL_ON',
    flag: '--fail-on',
    default: 'high',
    reader: 'cli',
    perClient: true,
    description: 'wait: the lowest alert severity that fails (low | medium | high | critical | never)',
  },
  {
    path: 'judge.kind',
    kind: 'string',
    env: 'EVALP_JUDGE',
    flag: '--judge',
    reader: 'cli',
    perClient: true,
    description: 'stage-4 judge of submitted runs (local | openai)',
  },
  {
    path: 'judge.model',
    kind: 'string',
    env: 'EVALP_JUDGE_MODEL',
    flag: '--judge-model',
    reader: 'cli',
    perClient: true,
    description: 'judge model of submitted runs',
  },
  {
    path: 'judge.pass_threshold',
    kind: 'number',
    env: 'EVALP_JUDGE_PASS_THRESHOLD',
    reader: 'cli',
    perClient: true,
    description: 'semantic score that passes',
  },
  {
    path: 'judge.openai.api_key',
    kind: 'string',
    env: 'OPENAI_API_KEY',
    secret: true,
    reader: 'platform',
    description: 'OpenAI judge key',
  },
  { path: 'judge.openai.base_url', kind: 'string', env: 'OPENAI_BASE_URL', reader: 'platform', description: 'OpenAI-compatible server' },
  {
    path: 'judge.azure_openai.endpoint',
    kind: 'string',
    env: 'AZURE_OPENAI_ENDPOINT',
    reader: 'platform',
    description: 'Azure OpenAI endpoint',
  },
  {
    path: 'judge.azure_openai.deployment',
    kind: 'string',
    env: 'AZURE_OPENAI_DEPLOYMENT',
    reader: 'platform',
    description: 'Azure OpenAI judge deployment',
  },
  {
    path: 'judge.azure_openai.api_version',
    kind: 'string',
    env: 'AZURE_OPENAI_API_VERSION',
    reader: 'platform',
    description: 'Azure OpenAI API version',
  },
  {
    path: 'judge.azure_openai.api_key',
    kind: 'string',
    env: 'AZURE_OPENAI_API_KEY',
    secret: true,
    reader: 'platform',
    description: 'Azure OpenAI key',
  },
  {
    path: 'notifications.public_url',
    kind: 'string',
    env: 'EVALP_PUBLIC_URL',
    reader: 'platform',
    description: 'dashboard link in e-mails and webhooks',
  },
  {
    path: 'notifications.email.from',
    kind: 'string',
    env: 'EVALP_EMAIL_FROM',
    reader: 'platform',
    description: 'sender of alert and run e-mails',
  },
  {
    path: 'notifications.email.run_finished',
    kind: 'boolean',
    env: 'EVALP_EMAIL_RUN_FINISHED',
    default: true,
    reader: 'platform',
    description: 'e-mail finished runs too',
  },
  {
    path: 'notifications.email.smtp.host',
    kind: 'string',
    env: 'EVALP_SMTP_HOST',
    reader: 'platform',
    description: 'SMTP server (embedded)',
  },
  {
    path: 'notifications.email.smtp.port',
    kind: 'number',
    env: 'EVALP_SMTP_PORT',
    default: 587,
    reader: 'platform',
    description: 'SMTP port',
  },
  {
    path: 'notifications.email.smtp.secure',
    kind: 'boolean',
    env: 'EVALP_SMTP_SECURE',
    default: false,
    reader: 'platform',
    description: 'TLS from the start (465)',
  },
  { path: 'notifications.email.smtp.user', kind: 'string', env: 'EVALP_SMTP_USER', reader: 'platform', description: 'SMTP user' },
  {
    path: 'notifications.email.smtp.password',
    kind: 'string',
    env: 'EVALP_SMTP_PASSWORD',
    secret: true,
    reader: 'platform',
    description: 'SMTP password',
  },
  {
    path: 'notifications.email.acs.endpoint',
    kind: 'string',
    env: 'EVALP_ACS_EMAIL_ENDPOINT',
    reader: 'platform',
    description: 'Azure Communication Services endpoint (Azure)',
  },
  {
    path: 'notifications.email.acs.connection_string',
    kind: 'string',
    env: 'EVALP_ACS_EMAIL_CONNECTION_STRING',
    secret: true,
    reader: 'platform',
    description: 'ACS connection string (instead of Entra ID)',
  },
  {
    path: 'notifications.webhook.max_retries',
    kind: 'number',
    env: 'EVALP_ALERT_WEBHOOK_MAX_RETRIES',
    default: 5,
    reader: 'platform',
    description: 'alert delivery retries',
  },
  {
    path: 'notifications.webhook.retry_delay_ms',
    kind: 'number',
    env: 'EVALP_ALERT_WEBHOOK_RETRY_DELAY_MS',
    default: 2000,
    reader: 'platform',
    description: 'first retry delay',
  },
  {
    path: 'notifications.webhook.timeout_ms',
    kind: 'number',
    env: 'EVALP_ALERT_WEBHOOK_TIMEOUT_MS',
    default: 10000,
    reader: 'platform',
    description: 'per attempt',
  },
];
