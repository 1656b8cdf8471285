import type { Alert, Client, Run, SloCompliance } from '../domain/index.js';
import type { Stores } from '../ports/index.js';
import { runOutcomes, scoredOutcomes } from '../compare/index.js';
import type { RegressionCheckDeps } from './checkRunRegressions.js';
import { formatPValue } from './notify/alertFacts.js';
import { recordAlerts } from './recordAlerts.js';
import type { AlertCandidate } from './regressionEvidence.js';
import { SLO_TEST, SloComplianceFold } from './sloCompliance.js';
import { resolveThresholds } from './thresholds.js';

/**
 * A run's compliance with its client's latency SLOs (`Client.latency_slos`), from its scored cases (the statistics
 * store's compact outcomes when it has them, else the scorecards): null when the run has no client or the client no
 * SLO. Computed on each read (GET /runs/{id}, reports), so a running run shows its compliance so far.
 */
export async function runSloCompliance(
  run: Pick<Run, 'id' | 'client_id'>,
  stores: Pick<Stores, 'clients' | 'runStats' | 'scorecards'>,
  client?: Client | null,
): Promise<SloCompliance[] | null> {
  const owner = client !== undefined ? client : run.client_id ? ((await stores.clients.get(run.client_id)) ?? null) : null;
  const slos = owner?.latency_slos;
  if (!slos?.length) return null;
  const fold = new SloComplianceFold(slos, resolveThresholds(owner).alpha);
  for await (const outcome of scoredOutcomes(await runOutcomes(stores, run.id, { order: 'any' }))) fold.add(outcome);
  return fold.result();
}

/**
 * The finished run's SLO check: every violated SLO (p95 above the target with p < alpha on at least `min_cases` cases)
 * becomes a `latency_slo` alert (id `<run>:latency_slo:<category>`, no baseline), stored and sent to the client's
 * webhooks like a regression alert. Idempotent (keyed by run and category).
 */
export async function checkLatencySlos(
  run: Run,
  deps: RegressionCheckDeps,
): Promise<{ compliance: SloCompliance[] | null; alerts: Alert[] }> {
  const client = run.client_id ? ((await deps.stores.clients.get(run.client_id)) ?? null) : null;
  const compliance = await runSloCompliance(run, deps.stores, client);
  const candidates = (compliance ?? []).flatMap((c) =>
    c.status === 'violated' && c.p95_ms !== null ? [sloCandidate({ ...c, p95_ms: c.p95_ms })] : [],
  );
  if (candidates.length === 0) return { compliance, alerts: [] };
  const alerts = await recordAlerts({ run, baseline: null, client, candidates, live: false, confirmsLive: false }, deps);
  return { compliance, alerts };
}

function sloCandidate(c: SloCompliance & { p95_ms: number }): AlertCandidate {
  const ratio = c.p95_ms / c.target_p95_ms;
  const where = c.category === '*' ? 'all categories' : `category ${c.category}`;
  return {
    metric: 'latency_slo',
    category: c.category,
    severity: c.severity ?? 'low',
    previous: c.target_p95_ms,
    current: c.p95_ms,
    change: Number(ratio.toFixed(6)),
    change_unit: 'ratio',
    threshold: 1,
    p_value: c.p_value ?? 1,
    test: SLO_TEST,
    affected_categories: [],
    paired_cases: c.cases,
    message:
      `latency SLO violated in ${where}: p95 ${Math.round(c.p95_ms)} ms > target ${c.target_p95_ms} ms (×${ratio.toFixed(2)}; ` +
      `${c.above_target} of ${c.cases} cases above the target, ${formatPValue(c.p_value ?? 1)}); ${c.severity ?? 'low'}`,
  };
}
