import { NO_CATEGORY, type Run, type Scorecard } from '../domain/index.js';
import { NotFoundError } from '../ports/index.js';
import type { ReportDeps } from './buildRunReport.js';
import { escapeXmlAttribute as attr, escapeXmlText as text } from './escape.js';
import { describeFailure, type FailureDescription } from './failureDiff.js';

/** Failing cases whose questions are looked up together. */
const QUESTION_BATCH = 500;

interface SuiteParts {
  tests: number;
  failures: number;
  errors: number;
  timeMs: number;
  cases: string[];
}

/**
 * The run as JUnit XML: one `<testsuite>` per category, one `<testcase>` per scored case (name = case id,
 * classname = `suite.category`, time = target latency in seconds). A case that failed carries `<failure>` (a stage
 * scored it wrong) or `<error>` (a stage could not score it) with the failing stage, the error code, the question,
 * the message and the diff. Everything is escaped for XML 1.0, including characters XML cannot carry.
 *
 * Returns the document in parts (join them, or write them in order). One pass over the scorecards; to group by
 * category it holds the rendered text (about 150 bytes per passing case), not the scorecards.
 */
export async function renderJunit(runId: string, deps: Pick<ReportDeps, 'stores' | 'clock'>): Promise<string[]> {
  const { stores } = deps;
  const run = await stores.runs.getRun(runId);
  if (!run) throw new NotFoundError('run', runId);
  const suites = new Map<string, SuiteParts>();
  // failing cases wait for their questions in a slot of their suite, so every suite keeps the scan's order
  const pending: Array<{ card: Scorecard; failure: FailureDescription; suite: SuiteParts; slot: number }> = [];
  const suiteOf = (category: string | null): SuiteParts => {
    const key = category ?? NO_CATEGORY;
    let suite = suites.get(key);
    if (!suite) suites.set(key, (suite = { tests: 0, failures: 0, errors: 0, timeMs: 0, cases: [] }));
    return suite;
  };
  const flush = async (): Promise<void> => {
    const questions = new Map(
      (await stores.testCases.getTestCases(pending.map((p) => p.card.test_case_id))).map((tc) => [tc.id, tc.nl_query]),
    );
    for (const { card, failure, suite, slot } of pending)
      suite.cases[slot] = testcase(run, card, failure, questions.get(card.test_case_id));
    pending.length = 0;
  };
  for await (const card of stores.scorecards.iterateScorecards(runId)) {
    const suite = suiteOf(card.category);
    suite.tests += 1;
    suite.timeMs += Number.isFinite(card.latency_ms) ? card.latency_ms : 0;
    const failure = describeFailure(card);
    if (!failure) {
      suite.cases.push(testcase(run, card, undefined, undefined));
      continue;
    }
    if (failure.status === 'error') suite.errors += 1;
    else suite.failures += 1;
    pending.push({ card, failure, suite, slot: suite.cases.push('') - 1 });
    if (pending.length >= QUESTION_BATCH) await flush();
  }
  await flush();

  const ordered = [...suites.entries()].sort(([a], [b]) => (a === NO_CATEGORY ? 1 : b === NO_CATEGORY ? -1 : a.localeCompare(b)));
  const sum = (f: (s: SuiteParts) => number): number => ordered.reduce((n, [, s]) => n + f(s), 0);
  const timestamp = (run.started_at ?? run.created_at).replace(/\.\d+/, '').replace(/(Z|[+-]\d\d:\d\d)$/, '');
  const meta = run.trigger_metadata;
  const properties = [
    ['run_id', run.id],
    ['run_status', run.status],
    ['suite_id', run.suite_id],
    ['target_id', run.target_id],
    ['client_id', run.client_id ?? ''],
    ['unscored_cases', String(Math.max(0, run.total_cases - sum((s) => s.tests)))],
    ...Object.entries(meta).map(([k, v]) => [k, String(v)]),
  ].filter(([, v]) => v !== '');
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<testsuites name="${attr(`EvalPlatform: ${run.target_id} on ${run.suite_id}`)}" tests="${sum((s) => s.tests)}" failures="${sum((s) => s.failures)}" errors="${sum((s) => s.errors)}" skipped="0" time="${seconds(sum((s) => s.timeMs))}">\n`,
  ];
  for (const [category, suite] of ordered) {
    parts.push(
      `<testsuite name="${attr(category)}" tests="${suite.tests}" failures="${suite.failures}" errors="${suite.errors}" skipped="0" time="${seconds(suite.timeMs)}" timestamp="${attr(timestamp)}" hostname="evalplatform">\n`,
      `<properties>\n${properties.map(([k, v]) => `<property name="${attr(k!)}" value="${attr(v!)}"/>\n`).join('')}</properties>\n`,
      ...suite.cases,
      '</testsuite>\n',
    );
  }
  parts.push('</testsuites>\n');
  return parts;
}

function testcase(run: Run, card: Scorecard, failure: FailureDescription | undefined, question: string | undefined): string {
  const head = `<testcase name="${attr(card.test_case_id)}" classname="${attr(`${run.suite_id}.${card.category ?? NO_CATEGORY}`)}" time="${seconds(card.latency_ms)}"`;
  if (!failure) return `${head}/>\n`;
  const element = failure.status === 'error' ? 'error' : 'failure';
  const code = failure.error_code ?? failure.status;
  const body = [
    `stage: ${failure.stage}${failure.status === 'error' ? ' (could not score)' : ''}`,
    `error code: ${code}`,
    `question: ${question ?? '(not in the gold set)'}`,
    `score: ${card.overall_score}`,
    `message: ${failure.message}`,
    ...(failure.diff.length ? ['diff:', ...failure.diff.map((d) => `  ${d}`)] : []),
  ].join('\n');
  return `${head}>\n<${element} message="${attr(`${failure.stage}/${code}: ${failure.message}`)}" type="${attr(code)}">${text(body)}</${element}>\n</testcase>\n`;
}

function seconds(ms: number): string {
  return (Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0).toFixed(3);
}
