import { ClientTriggersSchema, type Client, type Run, type TestCase } from '../../domain/index.js';
import { NotFoundError, type Clock, type Stores } from '../../ports/index.js';
import { allOf } from '../catalogSuites.js';
import { liveSuiteCaseIds, runCaseBodies } from '../suiteCases.js';
import { fireTrigger, triggerOf, triggerRunId, type TriggerCheckResult } from './triggerRun.js';

const CHUNK = 2_000;

/**
 * New cases in a suite start a run of just those cases against every client of the suite with `triggers.new_cases`.
 * A case is new by its `metadata.created_at` (set by the server when a case is created or first imported) after the
 * client's watermark: the `cases_through` of its last new-case run on the suite, else the client's `updated_at`
 * (when the trigger was switched on). Debounce: the run starts only once no case was added for
 * `new_cases_debounce_seconds`, so a bulk import (any number of cases, any number of requests) starts one run; it
 * covers the cases created in (`cases_after`, `cases_through`], both recorded on the run with `new_cases`.
 */
export async function newCaseTriggers(
  deps: { stores: Stores; clock: Clock },
  start: ((runId: string) => Promise<boolean>) | undefined,
  result: TriggerCheckResult,
): Promise<void> {
  const now = deps.clock.now().getTime();
  for (const client of await allOf<Client>(deps.stores.clients)) {
    if (!client.triggers) continue;
    const settings = ClientTriggersSchema.parse(client.triggers);
    if (!settings.new_cases) continue;
    for (const suiteId of new Set(client.suite_ids)) {
      const after = (await lastNewCaseRun(client.id, suiteId, deps.stores))?.trigger_metadata['cases_through'];
      const watermark = typeof after === 'string' ? after : client.updated_at;
      let fresh: TestCase[];
      try {
        fresh = await casesCreatedIn(suiteId, watermark, undefined, deps.stores);
      } catch (err) {
        if (err instanceof NotFoundError) {
          result.skipped.push({ trigger: 'new_cases', client_id: client.id, suite_id: suiteId, reason: err.message });
          continue;
        }
        throw err;
      }
      if (fresh.length === 0) continue;
      const through = fresh.map((tc) => tc.metadata.created_at!).reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
      const quietFor = now - Date.parse(through);
      if (quietFor < settings.new_cases_debounce_seconds * 1_000) {
        result.skipped.push({
          trigger: 'new_cases',
          client_id: client.id,
          suite_id: suiteId,
          reason: `debouncing: ${fresh.length} new case(s), the last added ${Math.round(quietFor / 1000)} s ago (waits ${settings.new_cases_debounce_seconds} s of quiet)`,
        });
        continue;
      }
      await fireTrigger(
        'new_cases',
        {
          client_id: client.id,
          suite_id: suiteId,
          run_id: triggerRunId('new_cases', client.id, suiteId, through),
          suite_version: 'live',
          config: { sample: null },
          trigger_metadata: { cases_after: watermark, cases_through: through, new_cases: fresh.length },
        },
        deps,
        start,
        result,
      );
    }
  }
}

/** The client's newest new-case run on the suite (its `cases_through` is the watermark). */
async function lastNewCaseRun(clientId: string, suiteId: string, stores: Stores): Promise<Run | undefined> {
  let best: Run | undefined;
  for (let offset = 0; ; offset += 100) {
    const page = await stores.runs.listRuns({ client_id: clientId, suite_id: suiteId }, { limit: 100, offset });
    for (const run of page.items) {
      if (triggerOf(run) !== 'new_cases') continue;
      const through = run.trigger_metadata['cases_through'];
      const bestThrough = best?.trigger_metadata['cases_through'];
      if (typeof through === 'string' && (typeof bestThrough !== 'string' || Date.parse(through) > Date.parse(bestThrough))) best = run;
    }
    if (!page.has_more) return best;
  }
}

/** The live suite's cases created after `after` (and at or before `through`, when given), in suite order. */
export async function casesCreatedIn(suiteId: string, after: string, through: string | undefined, stores: Stores): Promise<TestCase[]> {
  const suite = await stores.suites.get(suiteId);
  if (!suite) throw new NotFoundError('test suite', suiteId);
  const from = Date.parse(after);
  const to = through === undefined ? Infinity : Date.parse(through);
  const ids = await liveSuiteCaseIds(suite, stores);
  const out: TestCase[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    for (const tc of await runCaseBodies({ suite_id: suiteId, suite_version: null }, ids.slice(i, i + CHUNK), stores)) {
      const created = tc.metadata.created_at === undefined ? NaN : Date.parse(tc.metadata.created_at);
      if (created > from && created <= to) out.push(tc);
    }
  }
  return out;
}

/** The case ids of a new-case run: its suite's cases created in the window its trigger recorded. */
export async function newCaseRunIds(run: Run, stores: Stores): Promise<string[]> {
  const after = run.trigger_metadata['cases_after'];
  const through = run.trigger_metadata['cases_through'];
  if (typeof after !== 'string' || typeof through !== 'string') return [];
  return (await casesCreatedIn(run.suite_id, after, through, stores)).map((tc) => tc.id);
}
