import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../apiPlatform.test-helpers.js';
import { COMPAT_SCORERS } from '../compat/compatScorers.js';

/** The endpoint under evaluation: answers {response, agent, reason} by question; "broken" gets a 400. */
const ANSWERS: Record<string, { response: string; agent: string; reason: string }> = {
  'Where is my refund for order 42?': {
    response: 'Your refund of $25 for order 42 was issued on May 3.',
    agent: 'refunds',
    reason: 'the question is about a refund',
  },
  'When will my package arrive?': { response: 'I do not know.', agent: 'billing', reason: 'payment questions go to billing' },
  'What are your opening hours?': { response: 'We are open from 9 to 17 on weekdays.', agent: 'general', reason: 'a general question' },
};

const QUESTIONS = [
  {
    question: 'Where is my refund for order 42?',
    expected_outcome: {
      response: 'Your refund of $25 for order 42 was issued on May 3.',
      agent: 'Refunds',
      reason: 'the question is about a refund',
    },
  },
  {
    question: 'When will my package arrive?',
    expected_outcome: {
      response: 'Your package arrives on Tuesday, June 4.',
      agent: 'shipping',
      reason: 'the question is about a delivery date',
    },
  },
  { question: 'broken', expected_outcome: { response: 'anything', agent: 'billing' } },
  { question: 'What are your opening hours?', expected_outcome: { response: 'We are open from 9 to 17 on weekdays.' } },
];

let t: TestPlatform;
let server: Server;
let targetUrl: string;
let runner: string;
let reader: string;
const received: unknown[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { question } = JSON.parse(body) as { question: string };
      received.push(JSON.parse(body));
      const answer = ANSWERS[question];
      if (!answer) return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"cannot answer"}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
  t = await startTestPlatform('evalp-compat-');
  runner = await t.keyWith(['runner'], 'ci');
  reader = await t.keyWith(['reader'], 'dashboard');
});

afterAll(async () => {
  await t?.stop();
  server?.close();
});

async function waitForJob(statusUrl: string, timeoutMs = 30_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(statusUrl, { headers: { authorization: `Bearer ${reader}` } });
    const job = (await res.json()) as any;
    if (!['queued', 'running'].includes(job.status)) return job;
    if (Date.now() > until) throw new Error(`job still ${job.status}: ${JSON.stringify(job.progress)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('POST /api/evaluate, GET /api/evaluate/{job_id}, GET /api/scorers', () => {
  let jobId: string;
  let job: any;

  it('accepts a job (202) and runs it as a platform run against the endpoint, one request per question', async () => {
    const r = await t.api('POST', 'evaluate', { key: runner, body: { target_url: targetUrl, questions: QUESTIONS } });
    expect(r.status).toBe(202);
    jobId = r.json.job_id;
    expect(r.json).toEqual({
      job_id: expect.stringMatching(/^job-/),
      status: 'queued',
      status_url: `${t.platform.url}/api/evaluate/${jobId}`,
      total_questions: 4,
      submitted_at: expect.any(String),
    });
    expect(r.headers.get('location')).toBe(r.json.status_url);
    job = await waitForJob(r.json.status_url);
    expect([job.status, job.run_id, job.error]).toEqual(['completed', jobId, null]);
    expect([job.progress.completed, job.progress.total, job.progress.percent, job.progress.questions]).toEqual([
      4,
      4,
      100,
      { completed: 4, total: 4 },
    ]);
    // per scorer: every question looked at, scored where it applies (3 answered; an agent and numbers expected in all 3)
    const progress = Object.fromEntries(job.progress.scorers.map((p: { name: string; scored: number }) => [p.name, p.scored]));
    expect(progress).toMatchObject({ syntax: 3, execution: 0, agent_routing: 3, numerical_accuracy: 3, data_methodology: 0 });
    expect(job.progress.scorers.every((p: { completed: number; total: number }) => p.completed === 4 && p.total === 4)).toBe(true);
    // timing: submitted, started, completed in that order; the duration is the run's; nothing left to estimate
    expect(job.submitted_at).toBe(r.json.submitted_at);
    expect(Date.parse(job.started_at)).toBeGreaterThanOrEqual(Date.parse(job.submitted_at));
    expect(Date.parse(job.completed_at)).toBeGreaterThanOrEqual(Date.parse(job.started_at));
    expect(job.duration_seconds).toBeCloseTo((Date.parse(job.completed_at) - Date.parse(job.started_at)) / 1000, 0);
    expect(job.estimated_completion_seconds).toBe(0);
    expect(received.map((b) => (b as { question: string }).question).sort()).toEqual(QUESTIONS.map((q) => q.question).sort());
    const run = await t.api('GET', `v1/runs/${jobId}`, { key: reader });
    // one question of four is not scored (the endpoint answered 400: an infrastructure failure, not a model one): degraded
    expect([run.json.status, run.json.total_cases, run.json.config.execution.enabled, run.json.config.semantics.enabled]).toEqual([
      'degraded',
      4,
      false,
      true,
    ]);
    expect([run.json.stats.not_scored, run.json.stats.scored]).toEqual([1, 3]);
  });

  it('maps the run to the verdict: passed, overall_score, scorer_results (four stages + agent routing + reason), summary', async () => {
    const byName = Object.fromEntries(job.scorer_results.map((s: { name: string }) => [s.name, s]));
    expect(job.scorer_results.map((s: { name: string; weight: number }) => [s.name, s.weight])).toEqual(
      COMPAT_SCORERS.map((s) => [s.name, s.weight]),
    );
    expect([byName.syntax.score, byName.syntax.passed]).toEqual([1, true]); // the 3 answered all parse; the 4th is not scored
    expect([byName.logic.score, byName.execution.score, byName.execution.passed]).toEqual([1, null, null]);
    expect(byName.agent_routing).toEqual({
      name: 'agent_routing',
      score: 0.333,
      passed: false,
      weight: 0.2,
      required: false,
      rationale: expect.stringContaining('1 of 3 questions passed'),
    });
    expect(byName.agent_routing.rationale).toContain('routed to "billing" instead of "shipping"');
    expect([byName.routing_reason.passed, byName.semantics.passed]).toEqual([expect.any(Boolean), false]);
    expect([job.passed, job.overall_score]).toEqual([false, expect.any(Number)]);
    expect(job.summary).toMatch(
      /^2 of 4 questions passed \(50\.0%\); overall score 0\.\d{3} \(pass at 0\.7\): failed\. syntax 1\.000, logic 1\.000, semantics/,
    );
  });

  it('names the required scorers, which passed and failed, the critical issues, and links the reports', async () => {
    expect(job.required_scorers).toEqual(['syntax', 'semantics']);
    expect([job.required_passed, job.required_failed]).toEqual([['syntax'], ['semantics']]);
    expect(job.critical_issues).toEqual([{ scorer: 'semantics', rationale: expect.stringContaining('questions passed') }]);
    expect(job.scorer_results.filter((s: { required: boolean }) => s.required).map((s: { name: string }) => s.name)).toEqual([
      'syntax',
      'semantics',
    ]);
    const numbers = job.scorer_results.find((s: { name: string }) => s.name === 'numerical_accuracy');
    expect([numbers.score, numbers.passed, numbers.required]).toEqual([0.667, false, false]); // q1 and q4 state every number; q2 none
    expect(job.report_urls).toEqual({
      json: `${t.platform.url}/api/v1/runs/${jobId}/report`,
      markdown: `${t.platform.url}/api/v1/runs/${jobId}/report?format=markdown`,
      html: `${t.platform.url}/api/v1/runs/${jobId}/report?format=html`,
      dashboard: `${t.platform.url}/#/runs/${jobId}`,
    });
    const markdown = await fetch(job.report_urls.markdown, { headers: { authorization: `Bearer ${reader}` } });
    expect([markdown.status, (await markdown.text()).includes(jobId)]).toEqual([200, true]);
    const health = await t.api('GET', 'health');
    expect([health.status, health.json.version]).toEqual([200, JSON.parse(readFileSync('package.json', 'utf8')).version]);
  });

  it('passes a job whose required scorers pass even when an optional one fails, and fails it on a required one', async () => {
    const q = { question: QUESTIONS[0]!.question, expected_outcome: { response: 'Your refund of $30 for order 42 was issued on May 3.' } };
    const lenient = await t.api('POST', 'evaluate', { key: runner, body: { target_url: targetUrl, questions: [q], pass_threshold: 0.5 } });
    const strict = await t.api('POST', 'evaluate', {
      key: runner,
      body: { target_url: targetUrl, questions: [q], pass_threshold: 0.5, required_scorers: ['syntax', 'numerical_accuracy'] },
    });
    const [a, b] = [await waitForJob(lenient.json.status_url), await waitForJob(strict.json.status_url)];
    expect([a.passed, a.required_failed, a.scorer_results.find((s: { name: string }) => s.name === 'numerical_accuracy').passed]).toEqual([
      true,
      [],
      false,
    ]);
    expect([b.passed, b.required_failed, b.critical_issues[0].rationale]).toEqual([
      false,
      ['numerical_accuracy'],
      expect.stringContaining('0 of 1 questions passed'),
    ]);
    const bad = await t.api('POST', 'evaluate', {
      key: runner,
      body: { target_url: targetUrl, questions: [q], required_scorers: ['syntax', 'speed'] },
    });
    expect([bad.status, bad.json.errors[0].path]).toEqual([400, 'body.required_scorers.1']);
  });

  it('reports every question with what the endpoint said (response, agent, reason kept on the scorecards) and why it passed or not', async () => {
    const results = job.results as any[];
    expect(results.map((q) => [q.question, q.passed, q.response, q.agent, q.reason, q.error === null])).toEqual([
      [QUESTIONS[0]!.question, true, ANSWERS[QUESTIONS[0]!.question]!.response, 'refunds', 'the question is about a refund', true],
      [QUESTIONS[1]!.question, false, 'I do not know.', 'billing', 'payment questions go to billing', true],
      ['broken', false, null, null, null, false],
      [QUESTIONS[3]!.question, true, ANSWERS[QUESTIONS[3]!.question]!.response, 'general', 'a general question', true],
    ]);
    expect(results[2].error).toMatch(/HTTP 400|400/);
    const q1 = Object.fromEntries(results[0].scorer_results.map((s: { name: string }) => [s.name, s]));
    expect([q1.agent_routing.score, q1.routing_reason.score, q1.semantics.passed, results[0].score]).toEqual([1, 1, true, 1]);
    expect(results[3].scorer_results.find((s: { name: string }) => s.name === 'agent_routing')).toEqual({
      name: 'agent_routing',
      score: null,
      passed: null,
      weight: 0.2,
      required: false,
      rationale: 'no expected agent given',
    });
    expect(results[0].expected_outcome).toEqual({
      response: QUESTIONS[0]!.expected_outcome.response,
      agent: 'Refunds',
      reason: 'the question is about a refund',
    });
  });

  it('reuses the target for the same URL, and lists the scorers with weights summing to 1', async () => {
    const again = await t.api('POST', 'evaluate', { key: runner, body: { target_url: targetUrl, questions: [QUESTIONS[3]] } });
    const second = await waitForJob(again.json.status_url);
    expect([second.status, second.target_id, second.passed, second.overall_score]).toEqual(['completed', job.target_id, true, 1]);
    const scorers = await t.api('GET', 'scorers', { key: reader });
    expect(scorers.json.scorers.map((s: { name: string }) => s.name)).toEqual([
      'syntax',
      'logic',
      'execution',
      'semantics',
      'agent_routing',
      'routing_reason',
      'numerical_accuracy',
      'data_methodology',
    ]);
    expect(scorers.json.scorers.reduce((sum: number, s: { weight: number }) => sum + s.weight, 0)).toBeCloseTo(1, 9);
  });

  it('audits the job start (who, job id) and not its status reads', async () => {
    const admin = await t.keyWith(['platform-admin'], 'auditor');
    const audit = await t.api('GET', `v1/audit?entity_type=evaluate&entity_id=${jobId}`, { key: admin });
    expect(
      audit.json.items.map((r: { route: string; action: string; actor: { name: string }; status: number }) => [
        r.route,
        r.action,
        r.actor.name,
        r.status,
      ]),
    ).toEqual([['evaluate-start', 'start', 'ci', 202]]);
  });

  it.each([
    ['no target_url', { questions: QUESTIONS }, ['body.target_url']],
    ['an ftp URL', { target_url: 'ftp://example.com/x', questions: QUESTIONS }, ['body.target_url']],
    ['no questions', { target_url: 'http://127.0.0.1:1/x', questions: [] }, ['body.questions']],
    [
      'a question without an expected response',
      { target_url: 'http://127.0.0.1:1/x', questions: [{ question: 'q', expected_outcome: { agent: 'a' } }] },
      ['body.questions.0.expected_outcome.response'],
    ],
    ['an unknown field', { target_url: 'http://127.0.0.1:1/x', questions: QUESTIONS, model: 'x' }, ['body']],
  ])('refuses a job with %s (400 naming the field) and stores nothing', async (_label, body, paths) => {
    const before = (await t.api('GET', 'v1/runs?limit=1000', { key: reader })).json.total;
    const r = await t.api('POST', 'evaluate', { key: runner, body });
    expect([r.status, r.headers.get('content-type'), r.json.errors.map((e: { path: string }) => e.path)]).toEqual([
      400,
      'application/problem+json',
      paths,
    ]);
    expect((await t.api('GET', 'v1/runs?limit=1000', { key: reader })).json.total).toBe(before);
  });

  it('answers 404 for an unknown job and for a run that is not an evaluation job', async () => {
    expect((await t.api('GET', 'evaluate/job-nope', { key: reader })).status).toBe(404);
    const plain = await t.api('POST', 'v1/runs', { key: runner, body: { suite_id: jobId, target_id: job.target_id } });
    expect(plain.status).toBe(202);
    const r = await t.api('GET', `evaluate/${plain.json.id}`, { key: reader });
    expect([r.status, r.json.detail]).toEqual([404, `evaluation job "${plain.json.id}" does not exist`]);
  });

  it.each([
    ['POST', 'evaluate'],
    ['GET', 'evaluate/job-x'],
    ['GET', 'scorers'],
  ])('%s /api/%s: 401 without a key; 403 for a key without the role', async (method, path) => {
    const body = method === 'POST' ? { target_url: targetUrl, questions: [QUESTIONS[3]] } : undefined;
    const none = await t.api(method, path, body ? { body } : {});
    const denied = await t.api(method, path, {
      key: method === 'POST' ? reader : await t.keyWith([], 'no roles'),
      ...(body ? { body } : {}),
    });
    expect([none.status, denied.status, denied.headers.get('content-type')]).toEqual([401, 403, 'application/problem+json']);
  });
});

describe("GET /api/v1/runs/{id}/failures (on the job's run)", () => {
  let runId: string;

  beforeAll(async () => {
    const r = await t.api('POST', 'evaluate', { key: runner, body: { target_url: targetUrl, questions: QUESTIONS } });
    runId = r.json.job_id;
    await waitForJob(r.json.status_url);
  });

  it('lists the failed cases with their failing stage, error code and diffs', async () => {
    const r = await t.api('GET', `v1/runs/${runId}/failures`, { key: reader });
    expect(r.status).toBe(200);
    expect([r.json.total, r.json.has_more]).toEqual([2, false]);
    const byId = Object.fromEntries(r.json.items.map((f: { test_case_id: string }) => [f.test_case_id, f]));
    expect(byId[`${runId}-q2`]).toMatchObject({
      failing_stage: 'semantics',
      error_code: 'low_semantic_score',
      category: 'shipping',
      generated_nl_response: 'I do not know.',
    });
    expect(
      byId[`${runId}-q2`].stages.map((s: { stage: string; status: string; diff: unknown }) => [s.stage, s.status, s.diff !== null]),
    ).toEqual([['semantics', 'failed', true]]);
    expect(byId[`${runId}-q3`]).toMatchObject({
      failing_stage: 'syntax',
      error_code: 'target_error',
      category: 'billing',
      overall_score: 0,
    });
    expect(byId[`${runId}-q3`].stages[0].message).toMatch(/400/);
  });

  it.each([
    ['failing_stage=semantics', ['q2']],
    ['error_code=target_error', ['q3']],
    ['category=billing', ['q3']],
    ['tag=evaluate-compat&failing_stage=syntax', ['q3']],
    ['error_code=missing_call', []],
  ])('filters by %s', async (query, expected) => {
    const r = await t.api('GET', `v1/runs/${runId}/failures?${query}`, { key: reader });
    expect(r.json.items.map((f: { test_case_id: string }) => f.test_case_id.slice(runId.length + 1)).sort()).toEqual(expected);
  });

  it('pages, validates its query, and answers 404 / 401 / 403', async () => {
    const page = await t.api('GET', `v1/runs/${runId}/failures?limit=1&offset=1`, { key: reader });
    expect([page.json.items.length, page.json.total, page.json.has_more, page.json.offset]).toEqual([1, 2, false, 1]);
    const bad = await t.api('GET', `v1/runs/${runId}/failures?failing_stage=nope`, { key: reader });
    expect([bad.status, bad.json.errors[0].path]).toEqual([400, 'query.failing_stage']);
    expect((await t.api('GET', 'v1/runs/nope/failures', { key: reader })).status).toBe(404);
    expect((await t.api('GET', `v1/runs/${runId}/failures`)).status).toBe(401);
    expect((await t.api('GET', `v1/runs/${runId}/failures`, { key: await t.keyWith([], 'nobody') })).status).toBe(403);
  });
});
