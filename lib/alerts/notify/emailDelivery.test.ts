import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunSchema, type Client, type Run, type RunStats } from '../../domain/index.js';
import { EmbeddedAlertStore } from '../../adapters/embedded/alertStore.js';
import { createSmtpMailer } from '../../adapters/embedded/smtpMailer.js';
import { TempDatabases } from '../../adapters/embedded/tempDatabase.test-helpers.js';
import { deliverNotification, type DeliveryDeps } from './deliverNotification.js';
import { sampleAlert } from '../../ports/contracts/alertStore.contract.js';
import { clock, CRITICAL, NOW, RecordingQueue } from './notifications.test-helpers.js';
import { queueNotifications } from './queueNotifications.js';
import { queueRunEmails } from './queueRunEmails.js';

/** A real SMTP server on 127.0.0.1 (smtp-server): what arrives, or a chosen refusal. */
interface Received {
  from: string;
  to: string[];
  raw: string;
}
async function startSmtp(options: { rejectRcpt?: number } = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.rejectRcpt) return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: options.rejectRcpt }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Header value (unfolded) and the decoded text of a MIME part. */
const header = (raw: string, name: string): string | undefined =>
  new RegExp(`^${name}: (.*(?:\\r\\n[ \\t].*)*)`, 'im').exec(raw)?.[1]?.replace(/\r\n[ \t]/g, ' ');
function part(raw: string, type: 'text/plain' | 'text/html'): string {
  const at = raw.indexOf(`Content-Type: ${type}`);
  const body = raw.slice(raw.indexOf('\r\n\r\n', at) + 4).split(/\r\n--/)[0]!;
  const qp = /Content-Transfer-Encoding: quoted-printable/i.test(raw.slice(at, raw.indexOf('\r\n\r\n', at)));
  return qp ? body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))) : body;
}

const temps = new TempDatabases();
let alerts: EmbeddedAlertStore;
let queue: RecordingQueue;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeEach(async () => {
  alerts = new EmbeddedAlertStore(temps.open().db);
  queue = new RecordingQueue();
  smtp = await startSmtp();
});
afterEach(async () => {
  await smtp.close();
  temps.closeAll();
});

const client: Pick<Client, 'notify'> = {
  notify: [
    { kind: 'email', address: 'ops@example.com' },
    { kind: 'email', address: 'lead@example.com' },
  ],
};
const deps = (port: number, extra: Partial<DeliveryDeps> = {}): DeliveryDeps => ({
  stores: { alerts },
  queue,
  clock,
  publicUrl: 'https://dash.example.com',
  mailer: createSmtpMailer({ from: 'evalp@example.com', host: '127.0.0.1', port, timeoutInMs: 5_000 }),
  ...extra,
});

describe('e-mail notifications over SMTP', () => {
  it('an alert e-mail arrives at each address with the subject, plain-text and HTML bodies and the link', async () => {
    await alerts.upsertAlert(CRITICAL);
    const queued = await queueNotifications(CRITICAL, client, { stores: { alerts }, queue, clock });
    expect(queued.map((n) => [n.format, n.url]).sort()).toEqual([
      ['email', 'mailto:lead@example.com'],
      ['email', 'mailto:ops@example.com'],
    ]);
    for (const { message } of queue.sent.splice(0))
      expect((await deliverNotification(message.body, deps(smtp.port))).outcome).toBe('delivered');
    expect(smtp.received.map((r) => [r.from, r.to]).sort()).toEqual([
      ['evalp@example.com', ['lead@example.com']],
      ['evalp@example.com', ['ops@example.com']],
    ]);
    const mail = smtp.received.find((r) => r.to[0] === 'ops@example.com')!.raw;
    expect(header(mail, 'To')).toBe('ops@example.com');
    expect(header(mail, 'Subject')).toMatch(/^\[EvalPlatform\] Critical regression: accuracy/);
    const text = part(mail, 'text/plain');
    expect(text).toContain('accuracy dropped 4.6 pts (87.8% -> 83.2%); refunds -29.8 pts');
    expect(text).toContain(`Open: https://dash.example.com/api/v1/alerts/${encodeURIComponent(CRITICAL.id)}`);
    expect(part(mail, 'text/html')).toContain('accuracy dropped 4.6 pts (87.8% -&gt; 83.2%)');
    expect((await alerts.getAlert(CRITICAL.id))?.delivery).toMatchObject({ status: 'delivered' });
  });

  it('a finished-run e-mail tells the status, pass rate and counts, with the dashboard link', async () => {
    const run: Run = RunSchema.parse({
      id: 'run-42',
      client_id: 'acme',
      suite_id: 'retail',
      target_id: 'agent',
      status: 'completed',
      config: {},
      triggered_by: 'cli',
      baseline_run_id: null,
      total_cases: 10,
      shard_count: 1,
      created_at: NOW.toISOString(),
      started_at: NOW.toISOString(),
      completed_at: NOW.toISOString(),
      deadline_at: NOW.toISOString(),
    });
    const stats = { run_id: 'run-42', pass_rate: 0.8, passed: 8, failed: 2, not_scored: 0 } as RunStats;
    const runs = {
      runs: { getRun: async (id: string) => (id === run.id ? { ...run, _etag: 'e' } : undefined) },
      runStats: { getRunStats: async () => stats },
    };
    await queueRunEmails(run, { notify: [{ kind: 'email', address: 'ops@example.com' }] }, { stores: { alerts }, queue, clock });
    // a repeated finalize creates nothing new and sends the same message id (the queues drop the duplicate)
    expect(
      await queueRunEmails(run, { notify: [{ kind: 'email', address: 'ops@example.com' }] }, { stores: { alerts }, queue, clock }),
    ).toEqual([]);
    expect(new Set(queue.sent.map((m) => m.message.messageId))).toEqual(
      new Set(['run:run-42:' + queue.sent[0]!.message.body.notification_id.split(':')[2] + ':1']),
    );
    const result = await deliverNotification(
      queue.sent[0]!.message.body,
      deps(smtp.port, { runs: runs as unknown as DeliveryDeps['runs'] }),
    );
    expect(result.outcome).toBe('delivered');
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!.raw;
    expect(header(mail, 'Subject')).toBe('[EvalPlatform] Run run-42 completed: pass rate 80.0%');
    const text = part(mail, 'text/plain');
    expect(text).toContain('Suite retail on target agent for client acme finished completed.');
    expect(text).toContain('Cases: 8 passed, 2 failed, 0 not scored of 10');
    expect(text).toContain('Open: https://dash.example.com/#/runs/run-42');
  });

  it('SMTP down: the attempt is recorded and retried; after the retries the failure is recorded, the alert kept', async () => {
    await alerts.upsertAlert(CRITICAL);
    await queueNotifications(CRITICAL, { notify: [{ kind: 'email', address: 'ops@example.com' }] }, { stores: { alerts }, queue, clock });
    await smtp.close();
    const down = deps(smtp.port);
    const first = await deliverNotification(queue.sent.shift()!.message.body, down, {
      maxRetries: 1,
      retryDelayInMs: 10,
      random: () => 0.5,
    });
    expect(first.outcome).toBe('retry_scheduled');
    const [pending] = await alerts.listNotifications(CRITICAL.id);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1 });
    expect(pending!.last_error).toMatch(/^SMTP 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
    expect(queue.sent.map((m) => m.message.body)).toEqual([{ notification_id: pending!.id, attempt: 2 }]);
    const second = await deliverNotification(queue.sent.shift()!.message.body, down, { maxRetries: 1, retryDelayInMs: 10 });
    expect(second.outcome).toBe('failed');
    const [failed] = await alerts.listNotifications(CRITICAL.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 2 });
    expect(failed!.last_error).toMatch(/ECONNREFUSED.*\(gave up after 2 attempts\)$/);
    expect(await alerts.getAlert(CRITICAL.id)).toMatchObject({ id: CRITICAL.id, delivery: { status: 'failed' } });
  });

  it('a permanent refusal (550) is not retried; no mail sender configured is recorded, not lost', async () => {
    const refusing = await startSmtp({ rejectRcpt: 550 });
    try {
      await alerts.upsertAlert(CRITICAL);
      await queueNotifications(CRITICAL, { notify: [{ kind: 'email', address: 'ops@example.com' }] }, { stores: { alerts }, queue, clock });
      const message = queue.sent.shift()!.message.body;
      expect((await deliverNotification(message, deps(refusing.port))).outcome).toBe('failed');
      expect((await alerts.listNotifications(CRITICAL.id))[0]!.last_error).toMatch(/550.*\(not retried\)$/);
    } finally {
      await refusing.close();
    }
    const other = sampleAlert('run-c', 'accuracy', { severity: 'medium' });
    await alerts.upsertAlert(other);
    await queueNotifications(other, { notify: [{ kind: 'email', address: 'ops@example.com' }] }, { stores: { alerts }, queue, clock });
    const { mailer: _none, ...noMailer } = deps(smtp.port);
    expect((await deliverNotification(queue.sent.shift()!.message.body, noMailer)).outcome).toBe('failed');
    expect((await alerts.listNotifications(other.id))[0]!.last_error).toContain('no e-mail sender is configured (EVALP_EMAIL_FROM');
  });
});
