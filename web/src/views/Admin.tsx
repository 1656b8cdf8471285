import { useState } from 'preact/hooks';
import { api, get } from '../api.js';
import { can } from '../auth.js';
import { useLoad } from '../hooks.js';
import { href } from '../router.js';
import { Table } from '../components/Table.js';
import { Loading, Problem } from '../components/Problem.js';
import { when } from '../format.js';
import type { Alert, Client, Me, Page, TargetSystem } from '../types.js';

/** Target systems (secrets appear only as references: the API never returns a secret). */
export function TargetsView() {
  const targets = useLoad(() => get<Page<TargetSystem>>('v1/target-systems?limit=1000'), []);
  return (
    <section aria-labelledby="targets-h">
      <h1 id="targets-h">Target systems</h1>
      <Problem error={targets.error} />
      {targets.data ? (
        <Table
          id="targets-table"
          caption="Target systems"
          columns={[
            { key: 'id', label: 'Id', value: (t: TargetSystem) => t.id },
            { key: 'name', label: 'Name', value: (t) => t.name },
            { key: 'kind', label: 'Kind', value: (t) => t.settings.kind },
            {
              key: 'catalog',
              label: 'Tool catalog',
              value: (t) => (t.tool_catalog ? `${t.tool_catalog.name}@${t.tool_catalog.version}` : ''),
            },
            { key: 'runs', label: 'Runs', value: (t) => t.id, render: (t) => <a href={href('runs', { target_id: t.id })}>runs</a> },
            { key: 'updated', label: 'Updated', value: (t) => t.updated_at, render: (t) => when(t.updated_at) },
          ]}
          rows={targets.data.items}
          rowKey={(t) => t.id}
        />
      ) : (
        !targets.error && <Loading what="targets" />
      )}
    </section>
  );
}

export function ClientsView() {
  const clients = useLoad(() => get<Page<Client>>('v1/clients?limit=1000'), []);
  return (
    <section aria-labelledby="clients-h">
      <h1 id="clients-h">Clients</h1>
      <Problem error={clients.error} />
      {clients.data ? (
        <Table
          id="clients-table"
          caption="Clients"
          empty="No client yet: clients are teams with suites, a target and a nightly schedule (POST /api/v1/clients)."
          columns={[
            { key: 'id', label: 'Id', value: (c: Client) => c.id },
            { key: 'name', label: 'Name', value: (c) => c.name },
            { key: 'suites', label: 'Suites', value: (c) => c.suite_ids.join(', ') },
            { key: 'target', label: 'Target', value: (c) => c.target_id },
            { key: 'cron', label: 'Schedule (UTC)', value: (c) => c.schedule_cron ?? '' },
            { key: 'trend', label: 'Trend', value: (c) => c.id, render: (c) => <a href={href('trends', { client_id: c.id })}>trend</a> },
          ]}
          rows={clients.data.items}
          rowKey={(c) => c.id}
        />
      ) : (
        !clients.error && <Loading what="clients" />
      )}
    </section>
  );
}

/** Regression alerts; runners and admins may acknowledge them. */
export function AlertsView({ me }: { me: Me }) {
  const alerts = useLoad(() => get<Page<Alert>>('v1/alerts?limit=500'), []);
  const [error, setError] = useState<Error | undefined>();
  const ack = async (id: string): Promise<void> => {
    try {
      await api('POST', `v1/alerts/${encodeURIComponent(id)}/acknowledge`);
      alerts.reload();
    } catch (e) {
      setError(e as Error);
    }
  };
  const mayAck = can(me, 'runner');
  return (
    <section aria-labelledby="alerts-h">
      <h1 id="alerts-h">Alerts</h1>
      <Problem error={alerts.error ?? error} />
      {alerts.data ? (
        <Table
          id="alerts-table"
          caption="Regression alerts, newest first"
          empty="No regression alert."
          columns={[
            {
              key: 'sev',
              label: 'Severity',
              value: (a: Alert) => a.severity,
              render: (a) => <strong class={`sev-${a.severity}`}>{a.severity}</strong>,
            },
            { key: 'metric', label: 'Metric', value: (a) => a.metric },
            { key: 'msg', label: 'Message', value: (a) => a.message },
            {
              key: 'run',
              label: 'Run',
              value: (a) => a.run_id,
              render: (a) => <a href={href(`runs/${encodeURIComponent(a.run_id)}`)}>{a.run_id}</a>,
            },
            { key: 'created', label: 'Raised', value: (a) => a.created_at, render: (a) => when(a.created_at) },
            {
              key: 'ack',
              label: 'Acknowledged',
              value: (a) => a.acknowledged_at ?? '',
              render: (a) =>
                a.acknowledged_at ? (
                  `${a.acknowledged_by ?? ''} ${when(a.acknowledged_at)}`
                ) : mayAck ? (
                  <button type="button" onClick={() => void ack(a.id)}>
                    Acknowledge
                  </button>
                ) : (
                  'no'
                ),
            },
          ]}
          rows={alerts.data.items}
          rowKey={(a) => a.id}
        />
      ) : (
        !alerts.error && <Loading what="alerts" />
      )}
    </section>
  );
}

const QUEUES = ['evaluate-cases', 'execute-cases', 'judge-cases'];

interface DeadLetter {
  message_id: string;
  reason: string;
  description: string;
  delivery_count: number;
  enqueued_at: string | null;
  body: unknown;
}

/** Dead letters of the stage queues (platform-admin): inspect and replay. */
export function DeadLettersView() {
  const [queue, setQueue] = useState(QUEUES[0]!);
  const list = useLoad(() => get<{ items: DeadLetter[] }>(`v1/dead-letters/${queue}?limit=500`), [queue]);
  const [note, setNote] = useState<string | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const [open, setOpen] = useState<string | undefined>();
  const replay = async (ids?: string[]): Promise<void> => {
    try {
      const r = await api<{ replayed: number; not_found: string[] }>('POST', `v1/dead-letters/${queue}/replay`, {
        body: ids ? { message_ids: ids } : {},
      });
      setNote(
        `${r.body.replayed} message(s) sent back to ${queue}${r.body.not_found.length ? `; not found: ${r.body.not_found.join(', ')}` : ''}.`,
      );
      list.reload();
    } catch (e) {
      setError(e as Error);
    }
  };
  const shown = list.data?.items.find((m) => m.message_id === open);
  return (
    <section aria-labelledby="dlq-h">
      <h1 id="dlq-h">Dead letters</h1>
      <div class="filters">
        <label>
          Queue
          <select value={queue} onChange={(e) => setQueue((e.target as HTMLSelectElement).value)}>
            {QUEUES.map((q) => (
              <option key={q}>{q}</option>
            ))}
          </select>
        </label>
        <button type="button" disabled={!list.data?.items.length} onClick={() => void replay()}>
          Replay all
        </button>
      </div>
      {note && <p role="status">{note}</p>}
      <Problem error={list.error ?? error} />
      {list.data ? (
        <Table
          id="dlq-table"
          caption={`Dead letters of ${queue}`}
          empty="No dead letter."
          columns={[
            {
              key: 'id',
              label: 'Message',
              value: (m: DeadLetter) => m.message_id,
              render: (m) => (
                <button type="button" class="link" onClick={() => setOpen(open === m.message_id ? undefined : m.message_id)}>
                  {m.message_id}
                </button>
              ),
            },
            { key: 'reason', label: 'Reason', value: (m) => m.reason },
            { key: 'desc', label: 'Description', value: (m) => m.description },
            { key: 'n', label: 'Deliveries', numeric: true, value: (m) => m.delivery_count },
            { key: 'at', label: 'Enqueued', value: (m) => m.enqueued_at ?? '', render: (m) => when(m.enqueued_at) },
            {
              key: 'replay',
              label: 'Replay',
              value: () => '',
              render: (m) => (
                <button type="button" onClick={() => void replay([m.message_id])}>
                  Replay
                </button>
              ),
            },
          ]}
          rows={list.data.items}
          rowKey={(m) => m.message_id}
        />
      ) : (
        !list.error && <Loading what="dead letters" />
      )}
      {shown && <pre aria-label={`message ${shown.message_id}`}>{JSON.stringify(shown.body, null, 2)}</pre>}
    </section>
  );
}
