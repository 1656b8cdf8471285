import { get, qs } from '../api.js';
import { useLoad } from '../hooks.js';
import { navigate, type Route } from '../router.js';
import { ChartView, PALETTE } from '../components/Chart.js';
import { Table } from '../components/Table.js';
import { Loading, Problem } from '../components/Problem.js';
import { interval, ms, pct, usd } from '../format.js';
import type { TrendPoint, TrendSeries } from '../types.js';

interface TrendAlert {
  id: string;
  run_id: string;
  metric: string;
  severity: string;
  message: string;
  created_at: string;
}
interface Trends {
  from: string;
  to: string;
  runs: number;
  series: TrendSeries[];
  alerts: TrendAlert[];
}

const seriesName = (s: TrendSeries): string => [s.client_id ?? '(no client)', s.suite_id, s.target_id].filter(Boolean).join(' · ');

/** Pass rate, p95 latency and cost per case per day, one line per client (and suite, target); days with alerts marked. */
export function TrendsView({ route }: { route: Route }) {
  const q = {
    client_id: route.query.get('client_id') ?? '',
    from: route.query.get('from') ?? '',
    to: route.query.get('to') ?? '',
    group_by: route.query.get('group_by') ?? 'client_suite_target',
  };
  const trends = useLoad(() => get<Trends>(`v1/trends${qs(q)}`), [route.query.toString()]);
  const set = (k: string, v: string): void => navigate('trends', { ...q, [k]: v || undefined });
  const data = trends.data;
  const dates = data ? [...new Set(data.series.flatMap((s) => s.points.map((p) => p.date)))].sort() : [];
  const alertRuns = new Set(data?.alerts.map((a) => a.run_id) ?? []);
  const hasAlert = (p: TrendPoint): boolean => p.run_ids.some((id) => alertRuns.has(id));
  const chart = (metric: (p: TrendPoint) => number | null, title: string, yLabel: string) => ({
    type: 'line' as const,
    data: {
      labels: dates,
      datasets: (data?.series ?? []).map((s, i) => {
        const byDate = new Map(s.points.map((p) => [p.date, p]));
        const colour = PALETTE[i % PALETTE.length]!;
        return {
          label: seriesName(s),
          data: dates.map((d) => (byDate.has(d) ? metric(byDate.get(d)!) : null)),
          borderColor: colour,
          backgroundColor: colour,
          spanGaps: true,
          // a day with a regression alert: a large red triangle
          pointStyle: dates.map((d) => (byDate.has(d) && hasAlert(byDate.get(d)!) ? 'triangle' : 'circle')),
          pointRadius: dates.map((d) => (byDate.has(d) && hasAlert(byDate.get(d)!) ? 9 : 3)),
          pointBackgroundColor: dates.map((d) => (byDate.has(d) && hasAlert(byDate.get(d)!) ? '#b91c1c' : colour)),
        };
      }),
    },
    options: {
      plugins: { title: { display: true, text: title } },
      scales: { y: { title: { display: true, text: yLabel }, beginAtZero: true } },
    },
  });
  const rows = (data?.series ?? []).flatMap((s) => s.points.map((p) => ({ s, p })));
  return (
    <section aria-labelledby="trends-h">
      <h1 id="trends-h">Trends</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Trend filters">
        <label>
          client
          <input name="client_id" value={q.client_id} onChange={(e) => set('client_id', (e.target as HTMLInputElement).value.trim())} />
        </label>
        <label>
          from
          <input type="date" name="from" value={q.from} onChange={(e) => set('from', (e.target as HTMLInputElement).value)} />
        </label>
        <label>
          to
          <input type="date" name="to" value={q.to} onChange={(e) => set('to', (e.target as HTMLInputElement).value)} />
        </label>
        <label>
          one line per
          <select name="group_by" value={q.group_by} onChange={(e) => set('group_by', (e.target as HTMLSelectElement).value)}>
            <option value="client">client</option>
            <option value="client_suite">client and suite</option>
            <option value="client_suite_target">client, suite and target</option>
          </select>
        </label>
      </form>
      <Problem error={trends.error} />
      {!data && !trends.error && <Loading what="trends" />}
      {data && (
        <>
          <p class="muted" data-testid="trend-summary">
            {data.runs} completed run{data.runs === 1 ? '' : 's'} from {data.from} to {data.to}, {data.series.length} series,{' '}
            {data.alerts.length} alert{data.alerts.length === 1 ? '' : 's'} (red triangles). Pass rate is pooled over the day's cases; p95
            is the day's worst run.
          </p>
          <div class="grid3">
            <ChartView
              id="trend-pass"
              label="Pass rate per day"
              config={chart((p) => (p.pass_rate === null ? null : p.pass_rate * 100), 'Pass rate', '%')}
            />
            <ChartView id="trend-p95" label="p95 latency per day" config={chart((p) => p.p95_latency_ms, 'p95 latency', 'ms')} />
            <ChartView id="trend-cost" label="Cost per case per day" config={chart((p) => p.cost_per_case_usd, 'Cost per case', 'USD')} />
          </div>
          {data.alerts.length > 0 && (
            <>
              <h2>Alerts in this range</h2>
              <ul class="alerts">
                {data.alerts.map((a) => (
                  <li key={a.id} class={`sev-${a.severity}`}>
                    {a.created_at.slice(0, 10)} <strong>{a.severity}</strong> {a.metric}: {a.message}
                  </li>
                ))}
              </ul>
            </>
          )}
          <Table
            id="trend-table"
            caption="Trend points"
            columns={[
              { key: 'series', label: 'Series', value: (r: { s: TrendSeries; p: TrendPoint }) => seriesName(r.s) },
              { key: 'date', label: 'Day', value: (r) => r.p.date },
              { key: 'runs', label: 'Runs', numeric: true, value: (r) => r.p.runs },
              { key: 'cases', label: 'Cases', numeric: true, value: (r) => r.p.cases },
              {
                key: 'pass',
                label: 'Pass rate',
                numeric: true,
                value: (r) => r.p.pass_rate,
                render: (r) => `${pct(r.p.pass_rate)} (${interval(r.p.pass_rate_interval?.lower, r.p.pass_rate_interval?.upper)})`,
              },
              { key: 'p95', label: 'p95', numeric: true, value: (r) => r.p.p95_latency_ms, render: (r) => ms(r.p.p95_latency_ms) },
              {
                key: 'cost',
                label: 'Cost / case',
                numeric: true,
                value: (r) => r.p.cost_per_case_usd,
                render: (r) => usd(r.p.cost_per_case_usd),
              },
              {
                key: 'alert',
                label: 'Alert',
                value: (r) => (hasAlert(r.p) ? 'yes' : ''),
                render: (r) => (hasAlert(r.p) ? <strong class="sev-critical">alert</strong> : ''),
              },
            ]}
            rows={rows}
            rowKey={(r) => `${seriesName(r.s)}:${r.p.date}`}
            initialSort={{ key: 'date', dir: 'desc' }}
          />
        </>
      )}
    </section>
  );
}
