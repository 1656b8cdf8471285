import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Alert, Client } from '../../domain/index.js';
import { EmbeddedAlertStore } from '../../adapters/embedded/alertStore.js';
import { TempDatabases } from '../../adapters/embedded/tempDatabase.test-helpers.js';
import { deliverNotification, type DeliveryOptions } from './deliverNotification.js';
import { ALERT_NOTIFICATIONS_QUEUE, webhookKey } from './notificationQueue.js';
import { sampleAlert } from '../../ports/contracts/alertStore.contract.js';
import { clock, CRITICAL, NOW, RecordingQueue } from './notifications.test-helpers.js';
import { queueNotifications } from './queueNotifications.js';
import { startWebhookServer, type WebhookServer } from './webhookServer.test-helpers.js';

const temps = new TempDatabases();
let alerts: EmbeddedAlertStore;
let queue: RecordingQueue;
let server: WebhookServer;

beforeEach(async () => {
  alerts = new EmbeddedAlertStore(temps.open().db);
  queue = new RecordingQueue();
  drained = 0;
  server = await startWebhookServer();
});

afterEach(async () => {
  await server.close();
  temps.closeAll();
});

function clientWith(...webhooks: Array<{ url: string; format: 'slack' | 'teams' | 'json' }>): Pick<Client, 'notify'> {
  // e-mail addresses get notifications too (emailDelivery.test.ts); these tests are about webhooks
  return { notify: webhooks.map((w) => ({ kind: 'webhook' as const, ...w })) };
}

const deps = () => ({ stores: { alerts }, queue, clock, publicUrl: 'http://127.0.0.1:7071' });

let drained = 0;

/** Delivers every message queued since the last drain, in order (the queue's job), returning the outcomes. */
async function drain(options: DeliveryOptions = {}): Promise<string[]> {
  const outcomes: string[] = [];
  for (; drained < queue.sent.length; drained++)
    outcomes.push((await deliverNotification(queue.sent[drained]!.message.body, deps(), options)).outcome);
  return outcomes;
}

async function raise(alert: Alert, client: Pick<Client, 'notify'>): Promise<void> {
  await alerts.upsertAlert(alert);
  await queueNotifications(alert, client, deps());
}

describe('webhook delivery', () => {
  it('posts a Slack message {text, blocks} and records the delivery', async () => {
    await raise(CRITICAL, clientWith({ url: server.url, format: 'slack' }));
    expect(await drain()).toEqual(['delivered']);
    const body = server.received[0] as {
      text: string;
      blocks: Array<{ type: string; text?: { text: string }; fields?: Array<{ text: string }>; elements?: Array<{ text: string }> }>;
    };
    expect(body.text).toBe('Critical regression: accuracy of target-1: accuracy dropped 4.6 pts (87.8% -&gt; 83.2%); refunds -29.8 pts');
    expect(body.blocks.map((b) => b.type)).toEqual(['header', 'section', 'section', 'context']);
    expect(body.blocks[0]!.text!.text).toBe('Critical regression: accuracy of target-1');
    expect(body.blocks[1]!.text!.text).toBe('accuracy dropped 4.6 pts (87.8% -&gt; 83.2%); refunds -29.8 pts');
    expect(body.blocks[2]!.fields!.map((f) => f.text)).toEqual([
      '*Severity*\nCritical',
      '*Metric*\naccuracy',
      '*Baseline → current*\n87.8% → 83.2%',
      '*Change*\n-4.6 pts (threshold 5 pts drop)',
      '*Significance*\np &lt; 0.001 (exact McNemar)',
      '*Run*\nrun-b vs baseline baseline-1',
      '*Suite / target*\nsuite-1 / target-1',
      '*Affected categories*\nrefunds -29.8 pts (p &lt; 0.001 Holm)',
    ]);
    expect(body.blocks[3]!.elements![0]!.text).toBe('<http://127.0.0.1:7071/api/v1/alerts/run-b%3Aaccuracy|Open the alert>');
    expect((await alerts.getAlert(CRITICAL.id))!.delivery).toEqual({
      status: 'delivered',
      attempts: 1,
      last_error: null,
      delivered_at: NOW.toISOString(),
    });
  });

  it('posts a Teams message with an Adaptive Card', async () => {
    await raise(CRITICAL, clientWith({ url: server.url, format: 'teams' }));
    expect(await drain()).toEqual(['delivered']);
    expect(server.received[0]).toEqual({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              {
                type: 'TextBlock',
                text: 'Critical regression: accuracy of target-1',
                weight: 'Bolder',
                size: 'Large',
                wrap: true,
                color: 'Attention',
              },
              { type: 'TextBlock', text: CRITICAL.message, wrap: true },
              {
                type: 'FactSet',
                facts: expect.arrayContaining([
                  { title: 'Change', value: '-4.6 pts (threshold 5 pts drop)' },
                  { title: 'Affected categories', value: 'refunds -29.8 pts (p < 0.001 Holm)' },
                ]),
              },
            ],
            actions: [{ type: 'Action.OpenUrl', title: 'Open the alert', url: 'http://127.0.0.1:7071/api/v1/alerts/run-b%3Aaccuracy' }],
          },
        },
      ],
    });
  });

  it('posts plain JSON: the alert without its delivery bookkeeping, and a link', async () => {
    await raise(CRITICAL, clientWith({ url: server.url, format: 'json' }));
    await drain();
    const { delivery: _d, ...rest } = CRITICAL;
    expect(server.received).toEqual([
      {
        event: 'regression_alert',
        severity: 'critical',
        alert: rest,
        links: { alert: 'http://127.0.0.1:7071/api/v1/alerts/run-b%3Aaccuracy' },
      },
    ]);
  });

  it('a webhook with min_severity hears only of alerts at or above it: a medium alert is not sent, its escalation to critical is', async () => {
    const client = clientWith({ url: server.url, format: 'json' });
    const gated = { ...client, notify: client.notify.map((n) => ({ ...n, min_severity: 'high' as const })) };
    await raise({ ...CRITICAL, severity: 'medium', threshold: 2 }, gated);
    expect([await drain(), await alerts.listNotifications(CRITICAL.id)]).toEqual([[], []]);
    await raise(CRITICAL, gated);
    expect(await drain()).toEqual(['delivered']);
    expect(
      server.received.map((b) => [(b as { severity: string }).severity, (b as { alert: { severity: string } }).alert.severity]),
    ).toEqual([['critical', 'critical']]);
  });

  it('retries after a 500 with a jittered exponential backoff, then delivers', async () => {
    server.script = [{ status: 500, body: 'boom' }, { status: 502 }];
    await raise(CRITICAL, clientWith({ url: server.url, format: 'slack' }));
    expect(await drain({ retryDelayInMs: 1_000, random: () => 0.5 })).toEqual(['retry_scheduled', 'retry_scheduled', 'delivered']);
    expect(queue.sent.map((s) => [s.queue, s.message.messageId, s.message.scheduledEnqueueTimeUtc?.toISOString()])).toEqual([
      [ALERT_NOTIFICATIONS_QUEUE, `${CRITICAL.id}:critical:${webhookKey(server.url)}:1`, undefined],
      // full jitter: 0.5 x 1000 ms for the first retry, 0.5 x 2000 ms for the second
      [ALERT_NOTIFICATIONS_QUEUE, `${CRITICAL.id}:critical:${webhookKey(server.url)}:2`, '2026-03-01T12:00:00.500Z'],
      [ALERT_NOTIFICATIONS_QUEUE, `${CRITICAL.id}:critical:${webhookKey(server.url)}:3`, '2026-03-01T12:00:01.000Z'],
    ]);
    expect(server.received).toHaveLength(3);
    expect((await alerts.getAlert(CRITICAL.id))!.delivery).toEqual({
      status: 'delivered',
      attempts: 3,
      last_error: null,
      delivered_at: NOW.toISOString(),
    });
  });

  it('honours Retry-After (seconds) when it asks for longer than the backoff', async () => {
    server.script = [{ status: 429, headers: { 'retry-after': '120' }, body: 'rate_limited' }];
    await raise(CRITICAL, clientWith({ url: server.url, format: 'slack' }));
    const first = await deliverNotification(queue.sent[0]!.message.body, deps(), { retryDelayInMs: 1_000, random: () => 0.99 });
    expect(first).toEqual({
      notification_id: queue.sent[0]!.message.body.notification_id,
      attempt: 1,
      outcome: 'retry_scheduled',
      status: 429,
      next_attempt_at: '2026-03-01T12:02:00.000Z',
    });
    expect(queue.sent[1]!.message.scheduledEnqueueTimeUtc).toEqual(new Date('2026-03-01T12:02:00.000Z'));
    expect((await alerts.getAlert(CRITICAL.id))!.delivery).toEqual({
      status: 'pending',
      attempts: 1,
      last_error: 'HTTP 429: rate_limited',
      delivered_at: null,
    });
  });

  it('gives up after maxRetries retries and records the failure with its last error', async () => {
    server.script = [
      { status: 503, body: 'down' },
      { status: 503, body: 'down' },
      { status: 503, body: 'still down' },
    ];
    await raise(CRITICAL, clientWith({ url: server.url, format: 'json' }));
    expect(await drain({ maxRetries: 2, retryDelayInMs: 10 })).toEqual(['retry_scheduled', 'retry_scheduled', 'failed']);
    const [notification] = await alerts.listNotifications(CRITICAL.id);
    expect(notification).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_status: 503,
      last_error: 'HTTP 503: still down (gave up after 3 attempts)',
    });
    expect((await alerts.getAlert(CRITICAL.id))!.delivery).toEqual({
      status: 'failed',
      attempts: 3,
      last_error: 'HTTP 503: still down (gave up after 3 attempts)',
      delivered_at: null,
    });
  });

  it('does not retry a 4xx other than 408/429', async () => {
    server.script = [{ status: 404, body: 'no_service' }];
    await raise(CRITICAL, clientWith({ url: server.url, format: 'slack' }));
    expect(await drain()).toEqual(['failed']);
    expect((await alerts.getAlert(CRITICAL.id))!.delivery).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'HTTP 404: no_service (not retried)',
    });
  });

  it('retries when nobody answers, and the error never shows the URL', async () => {
    const url = server.url;
    await server.close();
    await raise(CRITICAL, clientWith({ url, format: 'slack' }));
    const result = await deliverNotification(queue.sent[0]!.message.body, deps(), { retryDelayInMs: 10 });
    expect([result.outcome, result.status]).toEqual(['retry_scheduled', null]);
    const [notification] = await alerts.listNotifications(CRITICAL.id);
    expect(notification!.last_error).toBe('no answer (ECONNREFUSED)');
    server = await startWebhookServer();
  });

  it('never delivers the same alert twice at the same severity: a redelivered message and a repeated raise do nothing', async () => {
    const client = clientWith({ url: server.url, format: 'slack' });
    await raise(CRITICAL, client);
    await drain();
    await raise(CRITICAL, client);
    expect(await deliverNotification(queue.sent[0]!.message.body, deps())).toMatchObject({ outcome: 'skipped' });
    expect([queue.sent.length, server.received.length]).toEqual([1, 1]);
  });

  it('goes out again when the alert escalates from warning to critical, not when it falls back', async () => {
    const client = clientWith({ url: server.url, format: 'slack' });
    const warning = { ...CRITICAL, severity: 'medium' as const, threshold: 2 };
    await raise(warning, client);
    expect(await drain()).toEqual(['delivered']);
    await raise(CRITICAL, client);
    expect(await drain()).toEqual(['delivered']);
    await raise(warning, client);
    expect([await drain(), queue.sent.length]).toEqual([[], 2]);
    expect(server.received.map((b) => (b as { blocks: Array<{ text: { text: string } }> }).blocks[0]!.text.text)).toEqual([
      'Medium regression: accuracy of target-1',
      'Critical regression: accuracy of target-1',
    ]);
  });

  it('supersedes a pending warning when the alert escalates before it went out', async () => {
    const client = clientWith({ url: server.url, format: 'slack' });
    await raise({ ...CRITICAL, severity: 'medium', threshold: 2 }, client);
    await raise(CRITICAL, client);
    expect(await drain()).toEqual(['skipped', 'delivered']);
    expect((await alerts.listNotifications(CRITICAL.id)).map((n) => [n.severity, n.status]).sort()).toEqual([
      ['critical', 'delivered'],
      ['medium', 'superseded'],
    ]);
  });

  it('sends to every webhook of the client, and nothing without webhooks (delivery none)', async () => {
    const other = await startWebhookServer();
    await raise(CRITICAL, clientWith({ url: server.url, format: 'slack' }, { url: other.url, format: 'teams' }));
    expect(await drain()).toEqual(['delivered', 'delivered']);
    expect([server.received.length, other.received.length]).toEqual([1, 1]);
    expect((await alerts.getAlert(CRITICAL.id))!.delivery).toMatchObject({ status: 'delivered', attempts: 2 });
    await other.close();
    const quiet = sampleAlert('run-q');
    await raise(quiet, { notify: [] });
    expect((await alerts.getAlert(quiet.id))!.delivery).toEqual({ status: 'none', attempts: 0, last_error: null, delivered_at: null });
  });
});
