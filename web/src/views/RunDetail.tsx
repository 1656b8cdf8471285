import { useState } from 'preact/hooks';
import { api, get } from '../api.js';
import { useLoad } from '../hooks.js';
import { href, type Route } from '../router.js';
import { Table, type Column } from '../components/Table.js';
import { ChartView, PALETTE } from '../components/Chart.js';
import { SideBySide } from '../components/SideBySide.js';
import { Loading, Problem } from '../components/Problem.js';
import { interval, ms, num, pct, usd, when } from '../format.js';
import { wilsonInterval } from '../../../lib/statistics/wilson.js';
import type { Alert, FailureView, Page, Run, RunStats, TestCase } from '../types.js';

type RunView = Run & { progress_pct: number; stats: RunStats | null };
const STAGES = ['syntax', 'logic', 'execution', 'semantics'] as const;

interface GroupRow {
  group: string;
  key: string;
  completed: number;
  passed: number;
  rate: number | null;
  lower: number;
  upper: number;
}

function groupRows(stats: RunStats): GroupRow[] {
  const families: Array<[string, Record<string, { completed: number; passed: number }>]> = [
    ['category', stats.by_category],
    ['tag', stats.by_tag],
    ['complexity', stats.by_complexity],
  ];
  return families.flatMap(([group, counts]) =>
    Object.entries(counts).map(([key, c]) => {
      const w = wilsonInterval(c.passed, c.completed);
      return {
        group,
        key,
        completed: c.completed,
        passed: c.passed,
        rate: c.completed ? c.passed / c.completed : null,
        lower: w.lower,
        upper: w.upper,
      };
    }),
  );
}

/** One run: stage funnel, pass rates by group with 95% Wilson intervals, latency and cost, alerts, failures with diffs. */
export function RunDetailView({ route }: { route: Route }) {
  const id = route.path[1] ?? '';
  const run = useLoad(() => get<RunView>(`v1/runs/${encodeURIComponent(id)}`), [id], {
    pollMs: 1500,
    keepPolling: (r) => r.status === 'pending' || r.status === 'running',
  });
  const live = run.data?.status === 'pending' || run.data?.status === 'running';
  const alerts = useLoad(() => get<Page<Alert>>(`v1/alerts?run_id=${encodeURIComponent(id)}&limit=100`), [id, run.data?.status]);
  const failures = useLoad(
    () => get<Page<FailureView>>(`v1/runs/${encodeURIComponent(id)}/failures?limit=1000`),
    [id, live ? run.data?.stats?.completed : run.data?.status],
  );
  const [open, setOpen] = useState<string | undefined>(route.query.get('case') ?? undefined);
  if (run.error) return <Problem error={run.error} />;
  if (!run.data) return <Loading what={`run ${id}`} />;
  const r = run.data;
  const s = r.stats;
  const groups = s ? groupRows(s) : [];
  const failureColumns: Column<FailureView>[] = [
    {
      key: 'case',
      label: 'Case',
      value: (f) => f.test_case_id,
      render: (f) => (
        <button
          type="button"
          class="link"
          aria-expanded={open === f.test_case_id}
          onClick={() => setOpen(open === f.test_case_id ? undefined : f.test_case_id)}
        >
          {f.test_case_id}
        </button>
      ),
    },
    { key: 'stage', label: 'Failing stage', value: (f) => f.failing_stage ?? '' },
    { key: 'code', label: 'Error code', value: (f) => f.error_code ?? '' },
    { key: 'message', label: 'Message', value: (f) => f.stages[0]?.message ?? '' },
    { key: 'category', label: 'Category', value: (f) => f.category ?? '' },
    { key: 'tags', label: 'Tags', value: (f) => f.tags.join(', ') },
    { key: 'complexity', label: 'Complexity', numeric: true, value: (f) => f.complexity_level },
    { key: 'score', label: 'Score', numeric: true, value: (f) => f.overall_score, render: (f) => f.overall_score.toFixed(2) },
    { key: 'latency', label: 'Latency', numeric: true, value: (f) => f.latency_ms, render: (f) => ms(f.latency_ms) },
  ];
  const openFailure = failures.data?.items.find((f) => f.test_case_id === open);
  return (
    <section aria-labelledby="run-h">
      <h1 id="run-h">
        Run <code>{r.id}</code> <span class={`status status-${r.status}`}>{r.status}</span>
      </h1>
      <p class="muted">
        suite {r.suite_id} · target {r.target_id} · client {r.client_id ?? 'none'} · profile {r.config.profile ?? '–'} · priority{' '}
        {r.config.priority ?? 'normal'} · created {when(r.created_at)}
        {r.baseline_run_id && (
          <>
            {' '}
            · baseline <a href={href(`runs/${encodeURIComponent(r.baseline_run_id)}`)}>{r.baseline_run_id}</a> (
            <a href={href('compare', { runs: `${r.baseline_run_id},${r.id}` })}>compare</a>)
          </>
        )}
      </p>
      <div class="cards" aria-live="polite">
        <div class="card">
          <span class="card-label">Progress</span>
          <progress max={100} value={r.progress_pct} aria-label="run progress" />{' '}
          <strong data-testid="run-progress">{Math.round(r.progress_pct)}%</strong>
          <span class="muted">
            {num(s?.completed ?? 0)} / {num(r.total_cases)} cases
          </span>
        </div>
        <div class="card">
          <span class="card-label">Pass rate</span>
          <strong data-testid="run-pass-rate">{pct(s?.pass_rate)}</strong>
          <span class="muted">
            {s && s.completed
              ? `95% CI ${interval(wilsonInterval(s.passed, s.completed).lower, wilsonInterval(s.passed, s.completed).upper)}`
              : ''}
          </span>
        </div>
        <div class="card">
          <span class="card-label">Latency</span>
          <strong>p95 {ms(s?.latency_ms.p95)}</strong>
          <span class="muted">
            p50 {ms(s?.latency_ms.p50)} · p99 {ms(s?.latency_ms.p99)} · mean {ms(s?.latency_ms.mean)}
          </span>
        </div>
        <div class="card">
          <span class="card-label">Cost</span>
          <strong>{usd(s?.cost_usd)}</strong>
          <span class="muted">
            {usd(s && s.completed ? s.cost_usd / s.completed : null)} per case · {num(s?.tokens.input)} in / {num(s?.tokens.output)} out
            tokens
          </span>
        </div>
      </div>
      {s && (
        <div class="grid2">
          <div>
            <h2>Stage funnel</h2>
            <ChartView
              id="funnel-chart"
              label={`Stage funnel: ${STAGES.map((st) => `${st} ${s.stages[st]?.passed ?? 0} of ${s.stages[st]?.ran ?? 0} passed`).join('; ')}`}
              config={{
                type: 'bar',
                data: {
                  labels: [...STAGES],
                  datasets: [
                    { label: 'ran', data: STAGES.map((st) => s.stages[st]?.ran ?? 0), backgroundColor: '#9db7e0' },
                    { label: 'passed', data: STAGES.map((st) => s.stages[st]?.passed ?? 0), backgroundColor: PALETTE[0] },
                  ],
                },
              }}
            />
            <Table
              id="funnel-table"
              caption="Stages"
              filterable={false}
              columns={[
                { key: 'stage', label: 'Stage', value: (x: (typeof STAGES)[number]) => x },
                { key: 'ran', label: 'Ran', numeric: true, value: (x) => s.stages[x]?.ran ?? 0 },
                { key: 'passed', label: 'Passed', numeric: true, value: (x) => s.stages[x]?.passed ?? 0 },
                {
                  key: 'rate',
                  label: 'Pass rate',
                  numeric: true,
                  value: (x) => s.stages[x]?.pass_rate ?? null,
                  render: (x) => pct(s.stages[x]?.pass_rate),
                },
              ]}
              rows={[...STAGES]}
              rowKey={(x) => x}
            />
          </div>
          <div>
            <h2>Alerts</h2>
            <Problem error={alerts.error} />
            {alerts.data && alerts.data.items.length === 0 && <p class="muted">No regression alert on this run.</p>}
            <ul class="alerts">
              {alerts.data?.items.map((a) => (
                <li key={a.id} class={`sev-${a.severity}`}>
                  <strong>{a.severity}</strong> {a.metric}: {a.message}{' '}
                  <span class="muted">
                    (p = {a.p_value.toPrecision(2)}, {a.status})
                  </span>
                </li>
              ))}
            </ul>
            {s.error_codes && Object.keys(s.error_codes).length > 0 && (
              <>
                <h2>Error codes</h2>
                <ul>
                  {Object.entries(s.error_codes)
                    .sort((a, b) => b[1] - a[1])
                    .map(([code, n]) => (
                      <li key={code}>
                        <code>{code}</code>: {n}
                      </li>
                    ))}
                </ul>
              </>
            )}
          </div>
        </div>
      )}
      {s && (
        <>
          <h2>Pass rate by category, tag and complexity</h2>
          <Table
            id="groups-table"
            caption="Pass rate by group, with 95% Wilson intervals"
            columns={[
              { key: 'group', label: 'Group', value: (g: GroupRow) => g.group },
              { key: 'key', label: 'Value', value: (g) => g.key },
              { key: 'completed', label: 'Cases', numeric: true, value: (g) => g.completed },
              { key: 'rate', label: 'Pass rate', numeric: true, value: (g) => g.rate, render: (g) => pct(g.rate) },
              { key: 'ci', label: '95% interval', value: (g) => g.lower, render: (g) => interval(g.lower, g.upper) },
            ]}
            rows={groups}
            rowKey={(g) => `${g.group}:${g.key}`}
            initialSort={{ key: 'rate', dir: 'asc' }}
          />
        </>
      )}
      <h2>Failures</h2>
      <Problem error={failures.error} />
      {failures.data && (
        <>
          <p class="muted">
            {failures.data.total} failed case{failures.data.total === 1 ? '' : 's'}
            {failures.data.has_more ? ` (first ${failures.data.items.length} shown)` : ''}. Select a case to see expected and actual calls
            side by side.
          </p>
          <Table
            id="failures-table"
            caption="Failed cases"
            columns={failureColumns}
            rows={failures.data.items}
            rowKey={(f) => f.test_case_id}
          />
        </>
      )}
      {openFailure && <FailureDetail failure={openFailure} />}
    </section>
  );
}

/** One failure: expected vs actual calls side by side, every failing stage's message and diff, the raw output. */
function FailureDetail({ failure }: { failure: FailureView }) {
  const gold = useLoad(
    () => api<TestCase>('GET', `v1/test-cases/${encodeURIComponent(failure.test_case_id)}`).then((r) => r.body),
    [failure.test_case_id],
  );
  return (
    <article class="failure" aria-labelledby="failure-h" data-testid="failure-detail">
      <h2 id="failure-h">
        Case <code>{failure.test_case_id}</code>
      </h2>
      {gold.data && (
        <p>
          <strong>Question:</strong> {gold.data.nl_query}
        </p>
      )}
      <Problem error={gold.error} />
      {gold.data && (
        <SideBySide caption="Tool calls: expected vs actual" left={gold.data.expected_tool_calls} right={failure.generated_tool_calls} />
      )}
      {failure.stages.map((st) => (
        <section key={st.stage} aria-label={`${st.stage} stage`}>
          <h3>
            {st.stage}: {st.status} {st.error_code && <code>{st.error_code}</code>}
          </h3>
          <p>{st.message}</p>
          {st.diff !== null && st.diff !== undefined && (
            <details>
              <summary>Stage details (diff)</summary>
              <pre>{JSON.stringify(st.diff, null, 2)}</pre>
            </details>
          )}
        </section>
      ))}
      {gold.data?.expected_nl_response && failure.generated_nl_response !== null && (
        <SideBySide
          caption="Answer: expected vs actual"
          left={gold.data.expected_nl_response.split('. ')}
          right={failure.generated_nl_response.split('. ')}
        />
      )}
      <details>
        <summary>Raw output</summary>
        <pre data-testid="raw-output">
          {JSON.stringify({ tool_calls: failure.generated_tool_calls, nl_response: failure.generated_nl_response }, null, 2)}
        </pre>
      </details>
    </article>
  );
}
