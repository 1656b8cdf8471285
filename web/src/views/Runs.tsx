import { useState } from 'preact/hooks';
import { get, qs } from '../api.js';
import { useLoad } from '../hooks.js';
import { href, navigate, type Route } from '../router.js';
import { Table, type Column } from '../components/Table.js';
import { Loading, Problem } from '../components/Problem.js';
import { ms, pct, usd, when } from '../format.js';
import type { Page, Run, RunHeadline } from '../types.js';

type RunRow = Run & { headline: RunHeadline | null };
const STATUSES = ['', 'pending', 'running', 'completed', 'failed', 'cancelled', 'timed_out'];
const FILTERS = ['client_id', 'suite_id', 'target_id', 'status', 'from', 'to'] as const;

const isLive = (r: RunRow): boolean => r.status === 'pending' || r.status === 'running';

/** The run list: newest first, live progress and pass rate (polled while a run is live), filters in the URL. */
export function RunsView({ route }: { route: Route }) {
  const f = Object.fromEntries(FILTERS.map((k) => [k, route.query.get(k) ?? ''])) as Record<(typeof FILTERS)[number], string>;
  const [selected, setSelected] = useState<string[]>([]);
  const runs = useLoad(
    () =>
      get<Page<RunRow>>(
        `v1/runs${qs({
          client_id: f.client_id,
          suite_id: f.suite_id,
          target_id: f.target_id,
          status: f.status,
          created_after: f.from ? `${f.from}T00:00:00Z` : undefined,
          created_before: f.to ? new Date(Date.parse(`${f.to}T00:00:00Z`) + 86_400_000).toISOString() : undefined,
          limit: 200,
        })}`,
      ),
    [route.query.toString()],
    // live runs every 1.5 s; otherwise every 5 s, so a run started elsewhere appears without a reload
    { pollMs: (p) => (p.items.some(isLive) ? 1500 : 5000) },
  );
  const setFilter = (key: string, value: string): void => navigate('runs', { ...f, [key]: value || undefined });
  const toggle = (id: string): void => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  const columns: Column<RunRow>[] = [
    {
      key: 'pick',
      label: 'Compare',
      value: (r) => (selected.includes(r.id) ? 1 : 0),
      render: (r) => (
        <input
          type="checkbox"
          aria-label={`select run ${r.id} to compare`}
          checked={selected.includes(r.id)}
          disabled={isLive(r)}
          onChange={() => toggle(r.id)}
        />
      ),
    },
    { key: 'id', label: 'Run', value: (r) => r.id, render: (r) => <a href={href(`runs/${encodeURIComponent(r.id)}`)}>{r.id}</a> },
    { key: 'status', label: 'Status', value: (r) => r.status, render: (r) => <span class={`status status-${r.status}`}>{r.status}</span> },
    {
      key: 'progress',
      label: 'Progress',
      numeric: true,
      value: (r) => r.headline?.progress_pct ?? 0,
      render: (r) => (
        <span class="progress-cell">
          <progress max={100} value={r.headline?.progress_pct ?? 0} aria-label={`progress of ${r.id}`} />{' '}
          {Math.round(r.headline?.progress_pct ?? 0)}%
        </span>
      ),
    },
    {
      key: 'pass',
      label: 'Pass rate',
      numeric: true,
      value: (r) => r.headline?.pass_rate ?? null,
      render: (r) => <span data-testid="pass-rate">{pct(r.headline?.pass_rate)}</span>,
    },
    {
      key: 'cases',
      label: 'Cases',
      numeric: true,
      value: (r) => r.headline?.completed ?? 0,
      render: (r) => `${r.headline?.completed ?? 0} / ${r.total_cases}`,
    },
    {
      key: 'p95',
      label: 'p95 latency',
      numeric: true,
      value: (r) => r.headline?.p95_latency_ms ?? null,
      render: (r) => ms(r.headline?.p95_latency_ms),
    },
    {
      key: 'cost',
      label: 'Cost / case',
      numeric: true,
      value: (r) => r.headline?.cost_per_case_usd ?? null,
      render: (r) => usd(r.headline?.cost_per_case_usd),
    },
    { key: 'client', label: 'Client', value: (r) => r.client_id ?? '' },
    { key: 'suite', label: 'Suite', value: (r) => r.suite_id },
    { key: 'target', label: 'Target', value: (r) => r.target_id },
    { key: 'created', label: 'Created', value: (r) => r.created_at, render: (r) => when(r.created_at) },
  ];
  return (
    <section aria-labelledby="runs-h">
      <h1 id="runs-h">Runs</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Run filters">
        {(['client_id', 'suite_id', 'target_id'] as const).map((k) => (
          <label key={k}>
            {k.replace('_id', '')}
            <input name={k} value={f[k]} onChange={(e) => setFilter(k, (e.target as HTMLInputElement).value.trim())} />
          </label>
        ))}
        <label>
          status
          <select name="status" value={f.status} onChange={(e) => setFilter('status', (e.target as HTMLSelectElement).value)}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s || 'any'}
              </option>
            ))}
          </select>
        </label>
        <label>
          from
          <input type="date" name="from" value={f.from} onChange={(e) => setFilter('from', (e.target as HTMLInputElement).value)} />
        </label>
        <label>
          to
          <input type="date" name="to" value={f.to} onChange={(e) => setFilter('to', (e.target as HTMLInputElement).value)} />
        </label>
        <button type="button" disabled={selected.length < 2} onClick={() => navigate('compare', { runs: selected.join(',') })}>
          Compare {selected.length || ''} selected
        </button>
      </form>
      <Problem error={runs.error} />
      {!runs.data && !runs.error && <Loading what="runs" />}
      {runs.data && (
        <>
          <p class="muted" aria-live="polite">
            {runs.data.total} run{runs.data.total === 1 ? '' : 's'}
            {runs.data.items.some(isLive) ? ' · live: updating every 1.5 s' : ' · updating every 5 s'}
          </p>
          <Table id="runs-table" caption="Runs, newest first" columns={columns} rows={runs.data.items} rowKey={(r) => r.id} />
        </>
      )}
    </section>
  );
}
