import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './apiTestPlatform.test-helpers.js';

let api: TestApi;

const order = (id: string) => [{ tool_name: 'get_order', arguments: { order_id: id } }];
const interaction = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  client_id: 'shop',
  target_id: 'agent-1',
  question: `Where is my order ${id}?`,
  tool_calls: [{ tool_name: 'search_orders', arguments: { q: id }, result: { orders: [] } }],
  answer: 'No orders found.',
  started_at: '2026-11-20T09:00:00Z',
  ...extra,
});

beforeAll(async () => {
  api = await startTestApi();
  const admin = api.keys['test-admin'];
  for (const [id, q, calls, category] of [
    ['case-order', 'Where is my order ORD-1?', order('ORD-1'), 'orders'],
    ['case-refund', 'Refund $10 on ORD-2 please', [{ tool_name: 'issue_refund', arguments: { order_id: 'ORD-2', amount: 10 } }], 'refunds'],
  ] as const) {
    const res = await api.call('POST', 'v1/test-cases', {
      key: admin,
      body: { id, nl_query: q, expected_tool_calls: calls, metadata: { category, tags: ['seed'] } },
    });
    expect(res.status).toBe(201);
  }
  for (const id of ['fb-suite', 'other-suite'])
    expect(
      (await api.call('POST', 'v1/test-suites', { key: api.keys['suite-admin'], body: { id, name: id, kind: 'static' } })).status,
    ).toBe(201);
}, 60_000);
afterAll(() => api.stop());

const post = (interactions: unknown[], extra: Record<string, unknown> = {}) =>
  api.call('POST', 'v1/feedback', { key: api.keys['test-admin'], body: { interactions, ...extra } });
const candidate = async (id: string) => (await api.call('GET', `v1/feedback/candidates/${encodeURIComponent(id)}`)).json;
const approve = (id: string, body: unknown = {}) =>
  api.call('POST', `v1/feedback/candidates/${encodeURIComponent(id)}/approve`, { key: api.keys['suite-admin'], body });
const suiteIds = async (id: string): Promise<string[]> => (await api.call('GET', `v1/test-suites/${id}`)).json.test_case_ids;

describe('POST /api/v1/feedback', () => {
  it('a correction becomes a pending candidate with the corrected call, the nearest case named and the category inferred', async () => {
    const res = await post(
      [
        interaction('ORD-1', {
          question: 'Where is my order ORD-1 right now?',
          flag: 'thumbs_down',
          correction: { tool_calls: order('ORD-1'), answer: 'ORD-1 shipped on Monday.', by: 'agent-7' },
        }),
      ],
      { suite_id: 'fb-suite' },
    );
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ received: 1, stored: 1, duplicates: 0, not_candidates: 0 });
    expect(res.json.candidates[0]).toMatchObject({ candidate_id: 'ORD-1', new: true, reason: 'corrected', needs: [], group_id: 'ORD-1' });
    const c = await candidate('ORD-1');
    expect(c.status).toBe('pending');
    expect(c.draft.expected_tool_calls).toEqual(order('ORD-1'));
    expect(c.draft.expected_nl_response).toBe('ORD-1 shipped on Monday.');
    expect(c.draft.id).toBe('fb-ORD-1');
    expect(c.tools).toEqual(['get_order']);
    // {where, is, my, order, ord, 1} vs the same plus {right, now}: 6/8
    expect(c.nearest_case).toEqual({
      id: 'case-order',
      question: 'Where is my order ORD-1?',
      similarity: 0.75,
      same_tools: true,
      near_duplicate: true,
    });
    expect(c.draft.metadata).toMatchObject({
      category: 'orders',
      source: 'production_feedback',
      tags: ['production-feedback', 'corrected'],
    });
    expect(c.suite_id).toBe('fb-suite');
  });

  it('stores an interaction once: the same batch posted again stores nothing and returns the same candidates', async () => {
    const batch = [interaction('dup-1', { flag: 'failed' }), interaction('dup-2', { flag: 'thumbs_up' }), interaction('dup-3')];
    const first = await post(batch);
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ received: 3, stored: 3, duplicates: 0, not_candidates: 2 });
    const again = await post([{ ...batch[0], answer: 'changed later' }, batch[1], batch[2]]);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ received: 3, stored: 0, duplicates: 3, not_candidates: 2 });
    expect(again.json.candidates).toEqual([{ ...first.json.candidates[0], new: false }]);
    expect((await api.call('GET', 'v1/feedback/interactions/dup-1')).json.answer).toBe('No orders found.');
    const all = (await api.call('GET', 'v1/feedback/candidates?status=all')).json.items as Array<{ id: string }>;
    expect(all.filter((c) => c.id.startsWith('dup-')).map((c) => c.id)).toEqual(['dup-1']);
  });

  it('groups near-duplicates (similar question and the same tools) and keeps other tool sets apart', async () => {
    const res = await post([
      interaction('g1', { question: 'show me the status of order ORD-77', flag: 'failed', correction: { tool_calls: order('ORD-77') } }),
      interaction('g2', { question: 'Show me order ORD-77 status!', flag: 'failed', correction: { tool_calls: order('ORD-77') } }),
      interaction('g3', {
        question: 'show me the status of order ORD-77',
        flag: 'failed',
        correction: { tool_calls: [{ tool_name: 'get_shipment_tracking', arguments: { order_id: 'ORD-77' } }] },
      }),
    ]);
    const groups = Object.fromEntries(
      (res.json.candidates as Array<{ candidate_id: string; group_id: string }>).map((c) => [c.candidate_id, c.group_id]),
    );
    expect(groups).toEqual({ g1: 'g1', g2: 'g1', g3: 'g3' });
    const g2 = await candidate('g2');
    // {show, me, order, ord, 77, status} vs {show, me, the, status, of, order, ord, 77}: 6/8
    expect(g2.similar_candidates[0]).toEqual({
      id: 'g1',
      question: 'show me the status of order ORD-77',
      similarity: 0.75,
      same_tools: true,
      near_duplicate: true,
    });
    expect((await candidate('g3')).similar_candidates.find((n: { id: string }) => n.id === 'g1')).toMatchObject({
      similarity: 1,
      same_tools: false,
      near_duplicate: false,
    });
    const listed = (await api.call('GET', 'v1/feedback/candidates?group_id=g1')).json.items.map((c: { id: string }) => c.id);
    expect(listed).toEqual(['g1', 'g2']);
  });

  it('the same interaction posted by four concurrent requests is stored once with one candidate', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => post([interaction('race-1', { flag: 'failed' })])));
    expect(answers.map((a) => a.json.stored).reduce((x: number, y: number) => x + y, 0)).toBe(1);
    expect(answers.every((a) => a.json.candidates[0].candidate_id === 'race-1')).toBe(true);
    expect(answers.filter((a) => a.json.candidates[0].new)).toHaveLength(1);
    const all = (await api.call('GET', 'v1/feedback/candidates?status=all')).json.items as Array<{ id: string }>;
    expect(all.filter((c) => c.id === 'race-1')).toHaveLength(1);
  });

  it('answers bad input with problem+json naming the field', async () => {
    const missing = await post([{ ...interaction('bad-1'), question: undefined }]);
    expect(missing.status).toBe(400);
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
    expect(JSON.stringify(missing.json.errors)).toContain('body.interactions.0.question');
    const noWho = await post([{ ...interaction('bad-2'), client_id: undefined, target_id: undefined }]);
    expect(JSON.stringify(noWho.json.errors)).toContain('body.interactions.0.client_id');
    const emptyCorrection = await post([interaction('bad-3', { correction: {} })]);
    expect(JSON.stringify(emptyCorrection.json.errors)).toContain('body.interactions.0.correction');
    expect((await api.call('POST', 'v1/feedback', { key: api.keys.reader, body: { interactions: [interaction('x')] } })).status).toBe(403);
    expect((await api.call('GET', 'v1/feedback/interactions/bad-1')).status).toBe(404);
  });
});

describe('review queue', () => {
  it('approving adds the case to the suite exactly once, with provenance, under parallel and repeated approvals', async () => {
    await post([interaction('ap-1', { flag: 'failed', correction: { tool_calls: order('ORD-9') } })], { suite_id: 'fb-suite' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => approve('ap-1')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.filter((a) => !a.json.already_approved)).toHaveLength(1);
    const again = await approve('ap-1', { edits: { expected_nl_response: 'ignored: it was approved' } });
    expect(again.json).toMatchObject({ already_approved: true, test_case_id: 'fb-ap-1', suite_id: 'fb-suite' });
    expect((await suiteIds('fb-suite')).filter((id) => id === 'fb-ap-1')).toHaveLength(1);
    const tc = (await api.call('GET', 'v1/test-cases/fb-ap-1')).json;
    expect(tc.expected_tool_calls).toEqual(order('ORD-9'));
    expect(tc.expected_nl_response).toBeUndefined();
    expect(tc.metadata.source).toBe('production_feedback');
    expect(tc.metadata.feedback).toMatchObject({
      interaction_id: 'ap-1',
      candidate_id: 'ap-1',
      client_id: 'shop',
      reason: 'corrected',
      approved_by: 'suite-admin-key',
    });
    expect((await candidate('ap-1')).status).toBe('approved');
    expect((await api.call('GET', 'v1/feedback/candidates')).json.items.map((c: { id: string }) => c.id)).not.toContain('ap-1');
  });

  it('approving again completes an approval that stopped after the decision (case and membership added once)', async () => {
    await post([interaction('half-1', { flag: 'failed', correction: { tool_calls: order('ORD-3') } })], { suite_id: 'fb-suite' });
    const { feedback } = api.platform.services.stores;
    const pending = (await feedback.getCandidate('half-1'))!;
    // as if the process died right after taking the decision: approved, but no case and no suite membership yet
    await feedback.replaceCandidate({
      ...pending,
      status: 'approved',
      decided_by: 'crashed-reviewer',
      decided_at: '2026-11-26T08:00:00.000Z',
      approved_case_id: 'fb-half-1',
      approved_suite_id: 'fb-suite',
    });
    expect((await api.call('GET', 'v1/test-cases/fb-half-1')).status).toBe(404);
    const retry = await approve('half-1');
    expect(retry.json).toMatchObject({ already_approved: true, test_case_id: 'fb-half-1' });
    expect((await approve('half-1')).json.already_approved).toBe(true);
    expect((await suiteIds('fb-suite')).filter((id) => id === 'fb-half-1')).toHaveLength(1);
    expect((await api.call('GET', 'v1/test-cases/fb-half-1')).json.metadata.feedback.approved_by).toBe('crashed-reviewer');
  });

  it('a flagged interaction without a correction needs the calls: 400 naming them, then approved with edits into another suite', async () => {
    await post([interaction('nc-1', { flag: 'thumbs_down' })]);
    const c = await candidate('nc-1');
    expect(c.needs).toEqual(['expected_tool_calls']);
    expect(c.draft.expected_tool_calls).toBeUndefined();
    expect(c.tools).toEqual(['search_orders']);
    const noSuite = await approve('nc-1', { edits: { expected_tool_calls: order('nc-1') } });
    expect(noSuite.status).toBe(400);
    expect(noSuite.json.errors).toEqual([expect.objectContaining({ path: 'body.suite_id' })]);
    const noCalls = await approve('nc-1', { suite_id: 'other-suite' });
    expect(noCalls.status).toBe(400);
    expect(noCalls.json.errors).toEqual([expect.objectContaining({ path: 'body.edits.expected_tool_calls' })]);
    const badEdit = await approve('nc-1', {
      suite_id: 'other-suite',
      edits: { expected_tool_calls: [{ tool_name: 'get_order', arguments: {}, depends_on: [4] }] },
    });
    expect(badEdit.status).toBe(400);
    expect(JSON.stringify(badEdit.json.errors)).toContain('body.edits.expected_tool_calls.0.depends_on');
    expect((await candidate('nc-1')).status).toBe('pending');
    const ok = await approve('nc-1', {
      suite_id: 'other-suite',
      edits: { expected_tool_calls: order('nc-1'), category: 'orders', tags: ['triaged'] },
    });
    expect(ok.status).toBe(200);
    expect(await suiteIds('other-suite')).toEqual(['fb-nc-1']);
    const tc = (await api.call('GET', 'v1/test-cases/fb-nc-1')).json;
    expect(tc.metadata).toMatchObject({ category: 'orders', tags: ['production-feedback', 'thumbs_down', 'triaged'] });
  });

  it('rejects with a reason; a rejected candidate cannot be approved, an approved one cannot be rejected', async () => {
    await post([interaction('rj-1', { flag: 'failed' })], { suite_id: 'fb-suite' });
    const reject = (id: string, body: unknown) =>
      api.call('POST', `v1/feedback/candidates/${id}/reject`, { key: api.keys['suite-admin'], body });
    const noReason = await reject('rj-1', { reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(JSON.stringify(noReason.json.errors)).toContain('body.reason');
    const done = await reject('rj-1', { reason: 'noise: the user was testing' });
    expect(done.json).toMatchObject({ status: 'rejected', rejection_reason: 'noise: the user was testing', decided_by: 'suite-admin-key' });
    expect((await reject('rj-1', { reason: 'again' })).json.rejection_reason).toBe('noise: the user was testing');
    const late = await approve('rj-1', { edits: { expected_tool_calls: [] } });
    expect(late.status).toBe(409);
    expect(late.headers.get('content-type')).toContain('application/problem+json');
    expect(await suiteIds('fb-suite')).not.toContain('fb-rj-1');
    expect((await reject('ap-1', { reason: 'too late' })).status).toBe(409);
    expect((await api.call('GET', 'v1/feedback/candidates?status=rejected')).json.items.map((c: { id: string }) => c.id)).toEqual(['rj-1']);
    expect((await reject('nope', { reason: 'x' })).status).toBe(404);
  });

  it('a conversation becomes a candidate with turns; the correction applies to its last turn', async () => {
    await post([
      {
        id: 'cv-1',
        target_id: 'agent-1',
        turns: [
          { user: 'I need the status of an order', answer: 'Which order?' },
          { user: 'ORD-5', tool_calls: [{ tool_name: 'search_orders', arguments: { q: 'ORD-5' } }], answer: 'None found.' },
        ],
        started_at: '2026-11-20T09:00:00Z',
        correction: { tool_calls: order('ORD-5') },
      },
    ]);
    const c = await candidate('cv-1');
    expect(c.draft.turns.map((t: { expected_tool_calls: unknown[] }) => t.expected_tool_calls)).toEqual([[], order('ORD-5')]);
    expect((await approve('cv-1', { suite_id: 'fb-suite' })).status).toBe(200);
    const tc = (await api.call('GET', 'v1/test-cases/fb-cv-1')).json;
    expect(tc.turns[1].expected_tool_calls).toEqual(order('ORD-5'));
    expect(tc.nl_query).toBe('I need the status of an order');
  });

  it('refuses a dynamic suite and an unknown suite', async () => {
    await api.call('POST', 'v1/test-suites', {
      key: api.keys['suite-admin'],
      body: { id: 'dyn', name: 'dyn', kind: 'dynamic', filter: { tags: ['x'] } },
    });
    await post([interaction('ds-1', { flag: 'failed', correction: { tool_calls: order('ds-1') } })]);
    expect((await approve('ds-1', { suite_id: 'dyn' })).status).toBe(409);
    expect((await approve('ds-1', { suite_id: 'missing-suite' })).status).toBe(404);
    expect((await candidate('ds-1')).status).toBe('pending');
  });
});
