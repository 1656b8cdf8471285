import { STAGE_NAMES, type StageName } from '../stageResult.js';
import { type RunStats } from '../runStats.js';
import { isScored } from '../outcomeKind.js';
import { addEfficiency, emptyEfficiencySums, type EfficiencySums } from '../efficiency.js';
import type { CaseOutcome } from './caseOutcome.js';
import { LogHistogram } from './logHistogram.js';
import { NO_CATEGORY, type Counts, type RunStatsState, type StageCounts } from './runStatsState.js';
import { runStatsOf } from './toRunStats.js';

const E9 = 1e9;
const MICROS_PER_MS = 1000;

/** A non-negative finite number in fixed point (rounded to an integer number of 1/scale units); 0 otherwise. */
export function toFixedPoint(value: number, scale: number): number {
  return value > 0 && Number.isFinite(value) ? Math.round(value * scale) : 0;
}

function bumpCount(map: Map<string, number>, key: string, sign: number): void {
  const next = (map.get(key) ?? 0) + sign;
  if (next === 0) map.delete(key);
  else map.set(key, next);
}

function bumpCounts(map: Map<string, Counts>, key: string, sign: number, passed: number): void {
  const counts = map.get(key);
  if (!counts) {
    map.set(key, { completed: sign, passed });
    return;
  }
  counts.completed += sign;
  counts.passed += passed;
  if (counts.completed === 0 && counts.passed === 0) map.delete(key);
}

const countsMap = (record: Record<string, Counts>) =>
  new Map(Object.entries(record).map(([key, c]): [string, Counts] => [key, { completed: c.completed, passed: c.passed }]));
const countsRecord = (map: Map<string, Counts>) =>
  Object.fromEntries([...map].map(([key, c]) => [key, { completed: c.completed, passed: c.passed }]));

/**
 * The fold's mutable working form (Maps instead of records, so any key, `__proto__` included, is safe). Load a
 * state, `apply` many outcomes, write the state once: the batch path of the run-statistics store.
 */
export class RunStatsAccumulator {
  private completed = 0;
  private notScored = 0;
  private passed = 0;
  private scoreSum = 0;
  private readonly stages = Object.fromEntries(STAGE_NAMES.map((s) => [s, { ran: 0, passed: 0 }])) as Record<StageName, StageCounts>;
  private latency = LogHistogram.empty();
  private latencySumUs = 0;
  private tokensIn = 0;
  private tokensOut = 0;
  private cost = 0;
  private byCategory = new Map<string, Counts>();
  private byTag = new Map<string, Counts>();
  private byComplexity = new Map<string, Counts>();
  private errorCodes = new Map<string, number>();
  private clientVersions = new Map<string, number>();
  /** undefined: a state from before efficiency was folded (not counted from the middle of a run) */
  private efficiency: EfficiencySums | undefined = emptyEfficiencySums();

  static empty(): RunStatsAccumulator {
    return new RunStatsAccumulator();
  }

  /** Copies the state (the state object is never mutated). */
  static fromState(state: RunStatsState): RunStatsAccumulator {
    const acc = new RunStatsAccumulator();
    acc.completed = state.completed;
    acc.notScored = state.not_scored ?? 0;
    acc.passed = state.passed;
    acc.scoreSum = state.score_sum_e9;
    for (const stage of STAGE_NAMES) acc.stages[stage] = { ran: state.stages[stage].ran, passed: state.stages[stage].passed };
    acc.latency = LogHistogram.fromState(state.latency);
    acc.latencySumUs = state.latency_sum_us;
    acc.tokensIn = state.tokens.input;
    acc.tokensOut = state.tokens.output;
    acc.cost = state.cost_e9_usd;
    acc.byCategory = countsMap(state.by_category);
    acc.byTag = countsMap(state.by_tag);
    acc.byComplexity = countsMap(state.by_complexity);
    acc.errorCodes = new Map(Object.entries(state.error_codes));
    acc.clientVersions = new Map(Object.entries(state.client_versions));
    acc.efficiency = state.efficiency ? { ...state.efficiency } : undefined;
    return acc;
  }

  toState(): RunStatsState {
    return {
      v: 1,
      completed: this.completed,
      not_scored: this.notScored,
      passed: this.passed,
      score_sum_e9: this.scoreSum,
      stages: Object.fromEntries(STAGE_NAMES.map((s) => [s, { ...this.stages[s] }])) as Record<StageName, StageCounts>,
      latency: this.latency.toState(),
      latency_sum_us: this.latencySumUs,
      tokens: { input: this.tokensIn, output: this.tokensOut },
      cost_e9_usd: this.cost,
      by_category: countsRecord(this.byCategory),
      by_tag: countsRecord(this.byTag),
      by_complexity: countsRecord(this.byComplexity),
      error_codes: Object.fromEntries(this.errorCodes),
      client_versions: Object.fromEntries(this.clientVersions),
      ...(this.efficiency ? { efficiency: { ...this.efficiency } } : {}),
    };
  }

  /** The RunStats document of the current state (same as `toRunStats(runId, this.toState(), ...)`). */
  toRunStats(runId: string, total: number, now: Date | string, state: RunStatsState = this.toState()): RunStats {
    return runStatsOf(runId, state, this.latency, total, now);
  }

  add(outcome: CaseOutcome): void {
    this.fold(outcome, 1);
  }

  remove(outcome: CaseOutcome): void {
    this.fold(outcome, -1);
  }

  /** Replaces a case's counted outcome: subtracts `previous` (when there is one), adds `next`. */
  apply(previous: CaseOutcome | undefined, next: CaseOutcome): void {
    if (previous) this.fold(previous, -1);
    this.fold(next, 1);
  }

  /**
   * A not-scored outcome (infrastructure: `outcomeKindOf`) counts in `completed`, `not_scored`, error codes,
   * tokens, cost and client versions only: never in passed, scores, stage rates, latency or the breakdowns.
   */
  private fold(outcome: CaseOutcome, sign: 1 | -1): void {
    this.completed += sign;
    this.tokensIn += sign * toFixedPoint(outcome.input_tokens, 1);
    this.tokensOut += sign * toFixedPoint(outcome.output_tokens, 1);
    this.cost += sign * toFixedPoint(outcome.estimated_cost_usd, E9);
    if (outcome.error_code) bumpCount(this.errorCodes, outcome.error_code, sign);
    if (outcome.client_version !== null && outcome.client_version !== undefined)
      bumpCount(this.clientVersions, outcome.client_version, sign);
    if (!isScored(outcome)) {
      this.notScored += sign;
      return;
    }
    const passed = outcome.overall_passed ? sign : 0;
    this.passed += passed;
    this.scoreSum += sign * toFixedPoint(outcome.overall_score, E9);
    for (const stage of STAGE_NAMES) {
      const status = outcome.stages?.[stage]?.status;
      if (status === undefined || status === 'skipped') continue;
      const counts = this.stages[stage];
      counts.ran += sign;
      if (status === 'passed') counts.passed += sign;
    }
    this.latency.add(outcome.latency_ms, sign);
    this.latencySumUs += sign * toFixedPoint(outcome.latency_ms, MICROS_PER_MS);
    bumpCounts(this.byCategory, outcome.category ?? NO_CATEGORY, sign, passed);
    bumpCounts(this.byComplexity, String(outcome.complexity_level), sign, passed);
    const tags = outcome.tags ?? [];
    for (let i = 0; i < tags.length; i++) {
      const tag = tags[i] as string;
      if (tags.indexOf(tag) === i) bumpCounts(this.byTag, tag, sign, passed);
    }
    if (this.efficiency && outcome.efficiency) addEfficiency(this.efficiency, outcome.efficiency, sign);
  }
}
