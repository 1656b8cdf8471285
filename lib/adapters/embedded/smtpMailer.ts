import nodemailer from 'nodemailer';
import type { MailMessage, MailPort, MailResult } from '../../ports/index.js';

export interface SmtpSettings {
  from: string;
  host: string;
  port?: number;
  secure?: boolean;
  user?: string;
  password?: string;
  /** per attempt (connection, greeting and socket), default 10 s */
  timeoutInMs?: number;
}

/** SMTP reply codes and socket errors worth another attempt: 4xx replies, connection and timeout failures. */
function retryable(err: { responseCode?: number; code?: string }): boolean {
  if (typeof err.responseCode === 'number') return err.responseCode >= 400 && err.responseCode < 500;
  return true; // no SMTP answer: connection refused, reset, timeout, DNS
}

/** The embedded host's mail port: nodemailer over SMTP (EVALP_SMTP_*), one connection per message. */
export function createSmtpMailer(settings: SmtpSettings): MailPort {
  const timeout = settings.timeoutInMs ?? 10_000;
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port ?? 587,
    secure: settings.secure ?? false,
    ...(settings.user ? { auth: { user: settings.user, pass: settings.password ?? '' } } : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    from: settings.from,
    async send(message: MailMessage): Promise<MailResult> {
      try {
        const info = await transport.sendMail({
          from: settings.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
        return { ok: true, id: info.messageId };
      } catch (err) {
        const e = err as Error & { responseCode?: number; code?: string };
        return {
          ok: false,
          retryable: retryable(e),
          error: `SMTP ${settings.host}:${settings.port ?? 587}: ${e.code ? `${e.code} ` : ''}${e.message}`,
        };
      }
    },
  };
}
