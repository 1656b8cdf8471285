import { EmailClient } from '@azure/communication-email';
import { DefaultAzureCredential } from '@azure/identity';
import type { MailMessage, MailPort, MailResult } from '../../ports/index.js';

export interface AcsMailSettings {
  from: string;
  /** https://<resource>.communication.azure.com (managed identity: role Contributor on the resource, or a custom role with Email send) */
  endpoint?: string;
  /** fallback only: a connection string instead of Entra ID */
  connectionString?: string;
}

/** Azure's mail port: Azure Communication Services Email, through Entra ID (DefaultAzureCredential) by default. */
export function createAcsMailer(settings: AcsMailSettings, client?: Pick<EmailClient, 'beginSend'>): MailPort {
  const email =
    client ??
    (settings.connectionString
      ? new EmailClient(settings.connectionString)
      : new EmailClient(settings.endpoint ?? '', new DefaultAzureCredential()));
  return {
    from: settings.from,
    async send(message: MailMessage): Promise<MailResult> {
      try {
        const poller = await email.beginSend({
          senderAddress: settings.from,
          content: { subject: message.subject, plainText: message.text, html: message.html },
          recipients: { to: message.to.map((address) => ({ address })) },
        });
        const result = await poller.pollUntilDone();
        if (result.status === 'Succeeded') return { ok: true, id: result.id };
        return { ok: false, retryable: false, error: `ACS e-mail ${result.status}: ${result.error?.message ?? 'no detail'}` };
      } catch (err) {
        const e = err as Error & { statusCode?: number };
        const status = e.statusCode;
        // throttled, server-side or no answer: try again; other 4xx (bad sender, bad address) will not get better
        const again = status === undefined || status === 408 || status === 429 || status >= 500;
        return { ok: false, retryable: again, error: `ACS e-mail${status ? ` ${status}` : ''}: ${e.message}` };
      }
    },
  };
}
