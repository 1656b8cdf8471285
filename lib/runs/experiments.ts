import { randomUUID } from 'node:crypto';
import {
  ExperimentCreateSchema,
  TERMINAL_RUN_STATUSES,
  type Experiment,
  type ExperimentCaseOutcome,
  type ExperimentCreate,
  type ExperimentResults,
  type Run,
} from '../domain/index.js';
import { experimentResults } from '../compare/index.js';
import { ConflictError, NotFoundError, PreconditionFailedError, type Clock, type Stores } from '../ports/index.js';
import { minimumPairedMeanSampleSize, minimumSampleSize } from '../statistics/index.js';
import { createRun, UnknownReferenceError } from './createRun.js';
import { publishSuiteVersion } from './publishSuiteVersion.js';
import { scoredCaseOutcomesOf } from './runCaseOutcomes.js';

export interface ExperimentDeps {
  stores: Stores;
  clock: Clock;
}

/**
 * Validates and stores a draft experiment: the suite and every variant's target must exist (422 naming the field),
 * and the minimum sample size comes from the power calculation (paired McNemar when `expected_discordance` is
 * given, else the conservative unpaired formula).
 */
export async function createExperiment(input: ExperimentCreate, deps: ExperimentDeps & { createdBy: string }): Promise<Experiment> {
  const settings = ExperimentCreateSchema.parse(input);
  const { stores } = deps;
  if (!(await stores.suites.get(settings.suite_id))) throw new UnknownReferenceError('suite_id', settings.suite_id);
  if (settings.target_id && !(await stores.targets.get(settings.target_id)))
    throw new UnknownReferenceError('target_id', settings.target_id);
  for (const [i, v] of settings.variants.entries()) {
    if (v.target_id && !(await stores.targets.get(v.target_id))) throw new UnknownReferenceError(`variants.${i}.target_id`, v.target_id);
  }
  if (typeof settings.suite_version === 'number' && !(await stores.suiteVersions.getVersion(settings.suite_id, settings.suite_version)))
    throw new UnknownReferenceError('suite_version', `${settings.suite_id}@${settings.suite_version}`);
  const minimum_sample_size =
    settings.primary_metric !== 'pass_rate'
      ? minimumPairedMeanSampleSize({ effectSize: settings.minimum_detectable_effect, alpha: settings.alpha, power: settings.power })
      : minimumSampleSize({
          effect: settings.minimum_detectable_effect,
          alpha: settings.alpha,
          power: settings.power,
          ...(settings.expected_discordance !== undefined ? { discordance: settings.expected_discordance } : {}),
        });
  const experiment: Experiment = {
    ...settings,
    id: `exp-${randomUUID()}`,
    minimum_sample_size: Number.isFinite(minimum_sample_size) ? minimum_sample_size : 1,
    status: 'draft',
    created_by: deps.createdBy,
    created_at: deps.clock.now().toISOString(),
    runs: {},
    sequential_p: {},
  };
  const { _etag, ...stored } = await stores.experiments.create(experiment);
  return stored;
}

async function load(id: string, stores: Stores) {
  const experiment = await stores.experiments.get(id);
  if (!experiment) throw new NotFoundError('experiment', id);
  return experiment;
}

/**
 * Starts a draft experiment: pins the suite version (`latest` publishes one when the suite has none, so every
 * variant evaluates the same case bodies), creates one run per variant on it (the variant's target and config
 * overrides, trigger metadata naming the experiment and variant) and hands each to `startRun` (the orchestration).
 */
export async function startExperiment(
  id: string,
  deps: ExperimentDeps & { startRun: (run: Run) => Promise<void>; check?: Parameters<typeof createRun>[1]['check'] },
): Promise<Experiment> {
  const { stores, clock } = deps;
  const experiment = await load(id, stores);
  if (experiment.status !== 'draft') throw new ConflictError('experiment', id, `is ${experiment.status}, only a draft can start`);
  let version = experiment.suite_version;
  if (version === 'latest') {
    version =
      (await stores.suiteVersions.listVersions(experiment.suite_id))[0]?.version ??
      (await publishSuiteVersion(experiment.suite_id, { author: experiment.created_by, note: `pinned by experiment ${id}` }, deps)).version;
  }
  const runs: Record<string, string> = {};
  const created: Run[] = [];
  for (const variant of experiment.variants) {
    const run = await createRun(
      {
        suite_id: experiment.suite_id,
        target_id: variant.target_id ?? experiment.target_id!,
        suite_version: version,
        triggered_by: 'api',
        trigger_metadata: { experiment_id: id, experiment_variant: variant.name },
        ...(variant.config ? { config: variant.config } : {}),
      },
      { stores, clock, ...(deps.check ? { check: deps.check } : {}) },
    );
    runs[variant.name] = run.id;
    created.push(run);
  }
  const started: Experiment = {
    ...experiment,
    status: 'running',
    started_at: clock.now().toISOString(),
    pinned_suite_version: version as number,
    runs,
  };
  const { _etag, ...stored } = await stores.experiments.replace(started, { ifMatch: experiment._etag });
  for (const run of created) await deps.startRun(run);
  return stored;
}

/**
 * The current results of an experiment (a concluded one returns its frozen conclusion). A sequential experiment
 * records each look's always-valid p-values, so the next look keeps the running minimum.
 */
export async function experimentResultsOf(id: string, deps: ExperimentDeps): Promise<ExperimentResults> {
  const { stores } = deps;
  const experiment = await load(id, stores);
  if (experiment.status === 'concluded' && experiment.conclusion) return experiment.conclusion;
  const outcomes = new Map<string, Map<string, ExperimentCaseOutcome>>();
  let runsComplete = experiment.status !== 'draft';
  for (const [variant, runId] of Object.entries(experiment.runs)) {
    const run = await stores.runs.getRun(runId);
    if (!run || !TERMINAL_RUN_STATUSES.has(run.status)) runsComplete = false;
    outcomes.set(variant, await scoredCaseOutcomesOf(runId, stores));
  }
  const { results, sequentialP } = experimentResults(experiment, { outcomes, runsComplete });
  if (experiment.method === 'sequential' && experiment.status === 'running') {
    const { _etag, ...rest } = experiment;
    // a concurrent look already stored its (equally valid) running minimum: keep that one
    await stores.experiments.replace({ ...rest, sequential_p: sequentialP }, { ifMatch: _etag }).catch((err: unknown) => {
      if (!(err instanceof PreconditionFailedError)) throw err;
    });
  }
  return results;
}

/** Freezes a running experiment with its results as they stand (winner or not); later reads return them. */
export async function concludeExperiment(id: string, deps: ExperimentDeps): Promise<Experiment> {
  const { stores, clock } = deps;
  const experiment = await load(id, stores);
  if (experiment.status !== 'running')
    throw new ConflictError('experiment', id, `is ${experiment.status}, only a running experiment can conclude`);
  const results = await experimentResultsOf(id, deps);
  const current = await load(id, stores);
  const { _etag, ...rest } = current;
  const concluded: Experiment = {
    ...rest,
    status: 'concluded',
    concluded_at: clock.now().toISOString(),
    conclusion: { ...results, status: 'concluded' },
  };
  const { _etag: _, ...stored } = await stores.experiments.replace(concluded, { ifMatch: _etag });
  return stored;
}
