/** One e-mail: plain text and HTML bodies of the same message. */
export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** What one send attempt gave: `retryable` failures (connection, timeout, 4xx SMTP replies, throttling) are tried again. */
export type MailResult = { ok: true; id?: string } | { ok: false; retryable: boolean; error: string };

/**
 * Sends e-mail for alerts and finished runs: SMTP (nodemailer) on the embedded host, Azure Communication Services
 * Email in Azure. `send` never throws for a delivery failure: it answers what happened, so the outbox records it.
 */
export interface MailPort {
  /** the sender address (EVALP_EMAIL_FROM) */
  readonly from: string;
  send(message: MailMessage): Promise<MailResult>;
}
