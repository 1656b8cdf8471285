import { createAcsMailer } from '../adapters/azure/index.js';
import { createSmtpMailer } from '../adapters/embedded/index.js';
import type { MailPort } from '../ports/index.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The mail port the settings describe: none without `EVALP_EMAIL_FROM`; Azure Communication Services Email with
 * `EVALP_ACS_EMAIL_ENDPOINT` (managed identity) or `EVALP_ACS_EMAIL_CONNECTION_STRING`; SMTP with `EVALP_SMTP_HOST`
 * (`EVALP_SMTP_PORT` 587, `EVALP_SMTP_SECURE`, `EVALP_SMTP_USER`, `EVALP_SMTP_PASSWORD`). Also set by
 * evalplatform.config.yaml `notifications.email`.
 */
export function mailerFromEnv(env: Env): MailPort | undefined {
  const from = env.EVALP_EMAIL_FROM?.trim();
  if (!from) return undefined;
  if (env.EVALP_ACS_EMAIL_ENDPOINT || env.EVALP_ACS_EMAIL_CONNECTION_STRING)
    return createAcsMailer({
      from,
      ...(env.EVALP_ACS_EMAIL_ENDPOINT ? { endpoint: env.EVALP_ACS_EMAIL_ENDPOINT } : {}),
      ...(env.EVALP_ACS_EMAIL_CONNECTION_STRING ? { connectionString: env.EVALP_ACS_EMAIL_CONNECTION_STRING } : {}),
    });
  if (env.EVALP_SMTP_HOST)
    return createSmtpMailer({
      from,
      host: env.EVALP_SMTP_HOST,
      ...(env.EVALP_SMTP_PORT ? { port: Number(env.EVALP_SMTP_PORT) } : {}),
      secure: env.EVALP_SMTP_SECURE === 'true',
      ...(env.EVALP_SMTP_USER ? { user: env.EVALP_SMTP_USER } : {}),
      ...(env.EVALP_SMTP_PASSWORD ? { password: env.EVALP_SMTP_PASSWORD } : {}),
    });
  return undefined;
}
