import { organizationOf, type Alert, type Organization, type Run } from '../domain/index.js';
import { ConflictError, JudgeError, type Clock, type Judge, type Stores } from '../ports/index.js';

/** The shares of the monthly budget that raise an alert, once per month each: a warning at 80%, critical at 100%. */
export const BUDGET_ALERT_THRESHOLDS = [
  { share: 0.8, severity: 'medium' },
  { share: 1, severity: 'critical' },
] as const;

/** An organization's spending this calendar month (UTC) against its budget. */
export interface BudgetStatus {
  organization: string;
  /** `YYYY-MM` (UTC) */
  month: string;
  /** USD spent on judge and target calls this month: the estimated cost of the scorecards of its runs created this month */
  spent_usd: number;
  /** null when the organization sets no budget */
  budget_usd: number | null;
  /** spent / budget, null without a budget */
  share: number | null;
  /** true once the budget is spent: stage 4 stops calling the judge */
  exhausted: boolean;
}

/** `YYYY-MM` of a time, in UTC. */
export function monthOf(time: Date): string {
  return time.toISOString().slice(0, 7);
}

function monthStart(time: Date): string {
  return `${monthOf(time)}-01T00:00:00.000Z`;
}

/**
 * Month-to-date spending of one organization: the `cost_usd` of the live statistics of every run it created this
 * month (the scorecards' `estimated_cost_usd`: target invocation plus judge tokens at the configured prices). A run
 * that began last month counts in last month. Reads unscoped stores, filtered by the organization in the query.
 */
export async function monthToDateSpend(stores: Pick<Stores, 'runs' | 'runStats'>, organization: string, now: Date): Promise<number> {
  let spent = 0;
  for (let offset = 0; ; offset += 1000) {
    const page = await stores.runs.listRuns({ organization, created_after: monthStart(now) }, { limit: 1000, offset });
    for (const run of page.items) spent += (await stores.runStats.getRunStats(run.id))?.cost_usd ?? 0;
    if (!page.has_more) return spent;
  }
}

export interface BudgetLedgerOptions {
  /** how long a computed status is reused before the spend is summed again (default 2000 ms) */
  cacheMs?: number;
}

/**
 * Budget checks for the stage workers: `status` sums an organization's month-to-date spend (cached `cacheMs`, so a
 * burst of judge calls does not re-read every run), compares it with the organization's budget and raises the 80%
 * and 100% alerts (`budgetAlert`: deterministic ids, so each fires once per month per threshold, also across
 * processes). The spend includes every stored scorecard, so a budget is exceeded by at most the judge calls in
 * flight when it ran out plus one cache period's worth.
 */
export class BudgetLedger {
  private readonly cache = new Map<string, { at: number; status: BudgetStatus }>();

  constructor(
    private readonly stores: Pick<Stores, 'runs' | 'runStats' | 'organizations' | 'alerts'>,
    private readonly clock: Clock,
    private readonly options: BudgetLedgerOptions = {},
  ) {}

  /** The organization's budget status now; `run` (the run being worked on) is named by the alerts it raises. */
  async status(organization: string, run?: Run): Promise<BudgetStatus> {
    const now = this.clock.now();
    const hit = this.cache.get(organization);
    if (hit && now.getTime() - hit.at < (this.options.cacheMs ?? 2000) && hit.status.month === monthOf(now)) return hit.status;
    const org = await this.stores.organizations.get(organization);
    const budget = org?.budget?.monthly_usd ?? null;
    const spent = budget === null ? 0 : await monthToDateSpend(this.stores, organization, now);
    const share = budget === null ? null : spent / budget;
    const status: BudgetStatus = {
      organization,
      month: monthOf(now),
      spent_usd: spent,
      budget_usd: budget,
      share,
      exhausted: share !== null && share >= 1,
    };
    this.cache.set(organization, { at: now.getTime(), status });
    if (org && share !== null && run) await this.raiseAlerts(org, status, run);
    return status;
  }

  /** Creates the alert of each threshold reached, unless this month's already exists (ConflictError: it does). */
  private async raiseAlerts(org: Organization, status: BudgetStatus, run: Run): Promise<void> {
    for (const threshold of BUDGET_ALERT_THRESHOLDS) {
      if ((status.share ?? 0) < threshold.share) continue;
      try {
        await this.stores.alerts.createAlert(budgetAlert(org, status, threshold, run, this.clock.now().toISOString()));
      } catch (err) {
        if (!(err instanceof ConflictError)) throw err;
      }
    }
  }
}

/** The id of an organization's budget alert for a month and threshold: `budget:<org>:<YYYY-MM>:<percent>`. */
export function budgetAlertId(organization: string, month: string, share: number): string {
  return `budget:${organization}:${month}:${Math.round(share * 100)}`;
}

/**
 * The alert of a budget threshold: metric `budget_spent`, previous = the budget (USD), current = the spend (USD),
 * change = spend / budget, threshold = the share crossed; the run during which it was seen is named (a budget alert
 * has no baseline: `baseline_run_id` is that run too). Severity warning at 80%, critical at 100%.
 */
export function budgetAlert(
  org: Organization,
  status: BudgetStatus,
  threshold: (typeof BUDGET_ALERT_THRESHOLDS)[number],
  run: Run,
  now: string,
): Alert {
  const percent = Math.round(threshold.share * 100);
  const spent = `$${status.spent_usd.toFixed(2)}`;
  const budget = `$${(status.budget_usd ?? 0).toFixed(2)}`;
  return {
    id: budgetAlertId(org.id, status.month, threshold.share),
    organization: org.id,
    run_id: run.id,
    baseline_run_id: run.id,
    client_id: run.client_id,
    suite_id: run.suite_id,
    target_id: run.target_id,
    metric: 'budget_spent',
    severity: threshold.severity,
    previous: status.budget_usd ?? 0,
    current: status.spent_usd,
    change: status.share ?? 0,
    change_unit: 'ratio',
    threshold: threshold.share,
    p_value: 0,
    test: 'month-to-date spend against the monthly budget',
    affected_categories: [],
    message:
      threshold.share >= 1
        ? `${org.name} has spent ${spent} of its ${budget} budget for ${status.month}: stage 4 no longer calls the judge (cases are not scored, runs end degraded) until the budget is raised or the month ends`
        : `${org.name} has spent ${spent} of its ${budget} budget for ${status.month} (${percent}% reached)`,
    live: false,
    paired_cases: 0,
    status: 'open',
    created_at: now,
    updated_at: now,
    acknowledged_at: null,
    acknowledged_by: null,
    delivery: { status: 'none', attempts: 0, last_error: null, delivered_at: null },
  };
}

const ledgers = new WeakMap<object, BudgetLedger>();

/** One ledger per set of stores (so its cache is shared by every run of a process). */
export function budgetLedgerFor(services: { stores: Stores; clock: Clock }, options?: BudgetLedgerOptions): BudgetLedger {
  let ledger = ledgers.get(services.stores);
  if (!ledger) ledgers.set(services.stores, (ledger = new BudgetLedger(services.stores, services.clock, options)));
  return ledger;
}

/**
 * The judge of a run with its organization's budget in front: before each call the ledger is asked; once the budget
 * is spent the call is not made and a JudgeError with reason `budget_exhausted` says why (stage 4 records it as
 * error code `budget_exhausted`: not scored, never a failure).
 */
export function budgetedJudge(judge: Judge, run: Run, ledger: BudgetLedger): Judge {
  const organization = organizationOf(run);
  return {
    name: judge.name,
    method: judge.method,
    async judge(input, options) {
      const status = await ledger.status(organization, run);
      if (status.exhausted) {
        throw new JudgeError(
          `the monthly budget of organization "${organization}" is spent ($${status.spent_usd.toFixed(4)} of $${(status.budget_usd ?? 0).toFixed(2)} in ${status.month}); the judge was not called`,
          { reason: 'budget_exhausted' },
        );
      }
      return judge.judge(input, options);
    },
  };
}
