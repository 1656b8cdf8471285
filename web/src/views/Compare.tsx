import { useState } from 'preact/hooks';
import { api, get } from '../api.js';
import { useLoad } from '../hooks.js';
import { navigate, type Route } from '../router.js';
import { Table } from '../components/Table.js';
import { SideBySide } from '../components/SideBySide.js';
import { Loading, Problem } from '../components/Problem.js';
import { interval, ms, pct, usd, when } from '../format.js';
import type { Comparison, FlippedCase, PairComparison, Page, Run } from '../types.js';

const FINISHED = new Set(['completed', 'timed_out', 'cancelled']);
const points = (d: number | null): string => (d === null ? '–' : `${d >= 0 ? '+' : ''}${(d * 100).toFixed(1)} pts`);

/** Compare two or more finished runs (POST /api/v1/compare): paired statistics, flipped cases with their diffs. */
export function CompareView({ route }: { route: Route }) {
  const chosen = (route.query.get('runs') ?? '').split(',').filter(Boolean);
  const runs = useLoad(() => get<Page<Run>>('v1/runs?limit=200'), []);
  const comparison = useLoad(
    async () => (chosen.length >= 2 ? (await api<Comparison>('POST', 'v1/compare', { body: { run_ids: chosen } })).body : undefined),
    [chosen.join(',')],
  );
  const [picked, setPicked] = useState<string[]>(chosen);
  const finished = runs.data?.items.filter((r) => FINISHED.has(r.status)) ?? [];
  return (
    <section aria-labelledby="compare-h">
      <h1 id="compare-h">Compare runs</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          navigate('compare', { runs: picked.join(',') });
        }}
      >
        <fieldset>
          <legend>Runs to compare (the first is the reference)</legend>
          {finished.map((r) => (
            <label key={r.id} class="check">
              <input
                type="checkbox"
                checked={picked.includes(r.id)}
                onChange={() => setPicked((p) => (p.includes(r.id) ? p.filter((x) => x !== r.id) : [...p, r.id]))}
              />
              {r.id}{' '}
              <span class="muted">
                ({r.target_id}, {when(r.created_at)})
              </span>
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={picked.length < 2 || picked.length > 10}>
          Compare {picked.length} runs
        </button>
      </form>
      {chosen.length < 2 && <p class="muted">Pick two to ten finished runs.</p>}
      <Problem error={comparison.error} />
      {comparison.loading && chosen.length >= 2 && !comparison.data && <Loading what="the comparison" />}
      {comparison.data && <ComparisonResult c={comparison.data} />}
    </section>
  );
}

function ComparisonResult({ c }: { c: Comparison }) {
  return (
    <>
      <Table
        id="compare-runs"
        caption="Runs side by side"
        filterable={false}
        columns={[
          { key: 'label', label: 'Label', value: (r: Comparison['runs'][number]) => r.label },
          { key: 'run', label: 'Run', value: (r) => r.run_id },
          { key: 'target', label: 'Target', value: (r) => r.target_id },
          {
            key: 'pass',
            label: 'Pass rate',
            numeric: true,
            value: (r) => r.pass_rate.rate,
            render: (r) => `${pct(r.pass_rate.rate)} (${interval(r.pass_rate.lower, r.pass_rate.upper)})`,
          },
          {
            key: 'p95',
            label: 'p95 latency',
            numeric: true,
            value: (r) => r.latency_ms.p95?.estimate ?? null,
            render: (r) => ms(r.latency_ms.p95?.estimate),
          },
          { key: 'cost', label: 'Cost / case', numeric: true, value: (r) => r.cost_usd.per_case, render: (r) => usd(r.cost_usd.per_case) },
        ]}
        rows={c.runs}
        rowKey={(r) => r.run_id}
      />
      {c.pairs.map((p) => (
        <Pair key={p.candidate_run_id} p={p} />
      ))}
    </>
  );
}

interface DeltaRow {
  what: string;
  delta: PairComparison['overall'];
  adj?: number;
}

function Pair({ p }: { p: PairComparison }) {
  const [open, setOpen] = useState<string | undefined>();
  const flips: Array<FlippedCase & { way: string }> = [
    ...p.flipped.newly_failing.cases.map((f) => ({ ...f, way: 'newly failing' })),
    ...p.flipped.newly_passing.cases.map((f) => ({ ...f, way: 'newly passing' })),
  ];
  const shown = flips.find((f) => f.test_case_id === open);
  return (
    <section aria-label={p.label} class="pair">
      <h2>{p.label}</h2>
      <p class="verdict" data-testid="verdict">
        {p.verdict}
      </p>
      <p class="muted">
        {p.cases.shared} paired cases{p.same_suite ? '' : ' (different suites)'} · pass-rate change {points(p.overall.difference)} (
        {interval(p.overall.lower, p.overall.upper)}), {p.overall.test} p = {p.overall.p_value.toPrecision(3)} · {p.overall.newly_failing}{' '}
        newly failing, {p.overall.newly_passing} newly passing · P(candidate better) {pct(p.bayesian.probability_b_better)}
      </p>
      <Table
        id={`stages-${p.candidate_run_id}`}
        caption={`Stages and categories, ${p.label}`}
        columns={[
          { key: 'what', label: 'What', value: (d: DeltaRow) => d.what },
          { key: 'n', label: 'Paired', numeric: true, value: (d) => d.delta.paired_cases },
          {
            key: 'base',
            label: 'Reference',
            numeric: true,
            value: (d) => d.delta.baseline.rate,
            render: (d) => pct(d.delta.baseline.rate),
          },
          {
            key: 'cand',
            label: 'Candidate',
            numeric: true,
            value: (d) => d.delta.candidate.rate,
            render: (d) => pct(d.delta.candidate.rate),
          },
          { key: 'diff', label: 'Change', numeric: true, value: (d) => d.delta.difference, render: (d) => points(d.delta.difference) },
          {
            key: 'p',
            label: 'p (Holm for groups)',
            numeric: true,
            value: (d) => d.adj ?? d.delta.p_value,
            render: (d) => (d.adj ?? d.delta.p_value).toPrecision(3),
          },
        ]}
        rows={[
          ...p.stages.map((s): DeltaRow => ({ what: `stage ${s.stage}`, delta: s })),
          ...p.by_category.map((g): DeltaRow => ({ what: `category ${g.key}`, delta: g, adj: g.p_value_adjusted })),
          ...p.by_complexity.map((g): DeltaRow => ({ what: `complexity ${g.key}`, delta: g, adj: g.p_value_adjusted })),
        ]}
        rowKey={(d) => d.what}
      />
      <h3>
        Flipped cases ({p.flipped.newly_failing.total} newly failing, {p.flipped.newly_passing.total} newly passing)
      </h3>
      {shown && (
        <SideBySide
          caption={`Case ${shown.test_case_id}: reference vs candidate`}
          leftLabel="Reference"
          rightLabel="Candidate"
          left={{
            passed: shown.baseline.passed,
            failing_stage: shown.baseline.failing_stage,
            error_code: shown.baseline.error_code,
            message: shown.baseline.message,
            details: shown.baseline.details ?? null,
          }}
          right={{
            passed: shown.candidate.passed,
            failing_stage: shown.candidate.failing_stage,
            error_code: shown.candidate.error_code,
            message: shown.candidate.message,
            details: shown.candidate.details ?? null,
          }}
        />
      )}
      <Table
        id={`flips-${p.candidate_run_id}`}
        caption={`Flipped cases, ${p.label}`}
        columns={[
          {
            key: 'case',
            label: 'Case',
            value: (f: FlippedCase & { way: string }) => f.test_case_id,
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
          { key: 'way', label: 'Flip', value: (f) => f.way },
          { key: 'cat', label: 'Category', value: (f) => f.category ?? '' },
          {
            key: 'why',
            label: 'Why the failing side failed',
            value: (f) => (f.baseline.passed ? f.candidate.message : f.baseline.message) ?? '',
          },
        ]}
        rows={flips}
        rowKey={(f) => f.test_case_id}
      />
    </section>
  );
}
