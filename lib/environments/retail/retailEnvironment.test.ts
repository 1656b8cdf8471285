import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CaseEnvironmentSchema, TestCaseSchema, type JsonObject } from '../../domain/index.js';
import { EnvironmentApiProvider } from '../environmentProvider.js';
import { environmentProblem, startEnvironment } from '../registry.js';
import { replayCalls, startSession } from '../session.js';
import { RETAIL_CATALOG } from './retailCatalog.js';
import type { RetailState } from './retailState.js';

const retail = () => startEnvironment('retail', 'default');
const stateOf = (env: ReturnType<typeof retail>) => env.state() as unknown as RetailState;

describe('the retail environment', () => {
  it('chains lookups the way a real API does: find a customer, list their orders, read one', () => {
    const env = retail();
    expect(env.call('find_customer', { email: 'ANN@example.com ' })).toEqual({
      status: 200,
      data: { customer_id: 'CUS-1001', name: 'Ann Lee', email: 'ann@example.com', tier: 'gold' },
    });
    const orders = env.call('list_orders', { customer_id: 'CUS-1001', status: 'delivered' });
    expect(orders).toEqual({
      status: 200,
      data: { customer_id: 'CUS-1001', orders: [{ order_id: 'ORD-5001', status: 'delivered', placed_on: '2026-09-02', total: 32.25 }] },
    });
    expect(env.call('get_order', { order_id: 'ORD-5001' }).data).toMatchObject({ total: 32.25, refunded_total: 0, refundable: 32.25 });
  });

  it('mutates state: a refund is recorded on the order, a cancel puts stock back, a reservation reserves', () => {
    const env = retail();
    expect(env.call('issue_refund', { order_id: 'ORD-5001', amount: 12.5, reason: 'chipped mug' })).toEqual({
      status: 200,
      data: { refund_id: 'REF-ORD-5001-1', order_id: 'ORD-5001', amount: 12.5, refundable: 19.75 },
    });
    expect(env.call('issue_refund', { order_id: 'ORD-5001', amount: 1, reason: 'again' }).data).toMatchObject({
      refund_id: 'REF-ORD-5001-2',
    });
    expect(env.call('cancel_order', { order_id: 'ORD-5003', reason: 'changed mind' }).data).toMatchObject({ status: 'cancelled' });
    expect(env.call('reserve_stock', { sku: 'SKU-KETTLE', quantity: 3 }).data).toEqual({ sku: 'SKU-KETTLE', reserved: 3, available: 5 });
    const state = stateOf(env);
    expect(state.orders['ORD-5001']!.refunded_total).toBe(13.5);
    expect(Object.keys(state.refunds).sort()).toEqual(['REF-ORD-5001-1', 'REF-ORD-5001-2', 'REF-ORD-5004-1']);
    expect(state.inventory['SKU-PRESS']!.on_hand).toBe(4); // 3 + the cancelled order's 1
    expect(state.inventory['SKU-MUG']!.on_hand).toBe(41);
    expect(state.inventory['SKU-KETTLE']!.reserved).toBe(3);
  });

  it('fails on bad input like a real API, and a rejected call changes nothing', () => {
    const env = retail();
    const before = env.state();
    const cases: Array<[string, JsonObject, number, string]> = [
      ['get_customer', { customer_id: 'CUS-9999' }, 404, 'not_found'],
      ['find_customer', {}, 400, 'missing_argument'],
      ['issue_refund', { order_id: 'ORD-5001', amount: 100, reason: 'x' }, 422, 'validation_error'],
      ['issue_refund', { order_id: 'ORD-5001', amount: -1, reason: 'x' }, 422, 'validation_error'],
      ['issue_refund', { order_id: 'ORD-5003', amount: 1, reason: 'x' }, 409, 'conflict'],
      ['issue_refund', { order_id: 'ORD-5001', amount: '5', reason: 'x' }, 400, 'invalid_argument'],
      ['cancel_order', { order_id: 'ORD-5001' }, 409, 'conflict'],
      ['reserve_stock', { sku: 'SKU-GRINDER', quantity: 1 }, 409, 'insufficient_stock'],
      ['reserve_stock', { sku: 'SKU-MUG', quantity: 1.5 }, 400, 'invalid_argument'],
      ['create_ticket', { customer_id: 'CUS-1002', subject: 'x', order_id: 'ORD-5001' }, 422, 'validation_error'],
      ['list_orders', { customer_id: 'CUS-1001', status: 'lost' }, 400, 'invalid_argument'],
      ['get_order', { order_id: 'ORD-5001', verbose: true }, 400, 'unknown_argument'],
      ['delete_everything', {}, 404, 'unknown_operation'],
    ];
    for (const [tool, args, status, error] of cases) {
      const answer = env.call(tool, args);
      expect([tool, answer.status, (answer.data as JsonObject)['error']]).toEqual([tool, status, error]);
      expect(typeof (answer.data as JsonObject)['message']).toBe('string');
    }
    expect(env.state()).toEqual(before);
    expect(env.call('issue_refund', { order_id: 'ORD-5001', amount: 100, reason: 'x' }).data).toMatchObject({
      message: 'amount 100 exceeds the refundable 32.25 of order ORD-5001',
    });
  });

  it('is deterministic and starts from named initial states; unknown names are named', () => {
    const calls: Array<{ tool_name: string; arguments: JsonObject }> = [
      { tool_name: 'create_ticket', arguments: { customer_id: 'CUS-1001', subject: 'late kettle', order_id: 'ORD-5002' } },
      { tool_name: 'update_ticket', arguments: { ticket_id: 'TCK-CUS-1001-1', priority: 'high' } },
    ];
    const env = CaseEnvironmentSchema.parse({ name: 'retail' });
    expect(replayCalls(env, calls)).toEqual(replayCalls(env, calls));
    expect(replayCalls(env, calls).answers[1]!.answer.data).toMatchObject({
      ticket_id: 'TCK-CUS-1001-1',
      priority: 'high',
      status: 'open',
    });
    expect((startEnvironment('retail', 'low_stock').state() as unknown as RetailState).inventory['SKU-MUG']).toMatchObject({
      on_hand: 1,
      reserved: 0,
    });
    expect(environmentProblem('retail', 'nope')).toBe(
      'environment "retail" has no initial state "nope" (it has: default, low_stock, empty)',
    );
    expect(environmentProblem('bank', 'default')).toBe('unknown environment "bank" (known: retail)');
    expect(RETAIL_CATALOG.tools.map((t) => t.name)).toHaveLength(12);
  });

  it('serves scripted failures instead of running the call (error, timeout, empty), counted per tool or overall', () => {
    const session = startSession(
      CaseEnvironmentSchema.parse({
        name: 'retail',
        faults: [
          { tool: 'issue_refund', occurrence: 1, kind: 'error' },
          { occurrence: 3, kind: 'timeout' },
          { tool: 'list_orders', occurrence: 2, kind: 'empty', data: { orders: [] } },
        ],
      }),
    );
    const refund = { order_id: 'ORD-5001', amount: 5, reason: 'x' };
    expect(session.call('issue_refund', refund)).toMatchObject({ answer: { status: 503 }, fault: { kind: 'error' } });
    expect(session.call('list_orders', { customer_id: 'CUS-1001' }).answer.status).toBe(200);
    expect(session.call('get_order', { order_id: 'ORD-5001' })).toMatchObject({ answer: { status: 504, data: { error: 'timeout' } } });
    expect(session.call('list_orders', { customer_id: 'CUS-1001' }).answer).toEqual({ status: 200, data: { orders: [] } });
    expect(session.call('issue_refund', refund).answer.status).toBe(200); // the retry runs
    expect((session.state() as unknown as RetailState).orders['ORD-5001']!.refunded_total).toBe(5); // the failed call changed nothing
  });

  it('as a stage-3 provider: one session per conversation, scripted failures flagged, a case without environment refused', async () => {
    const provider = new EnvironmentApiProvider();
    const testCase = TestCaseSchema.parse({
      id: 'refund',
      nl_query: 'refund 5 on ORD-5001',
      expected_tool_calls: [],
      environment: { name: 'retail', faults: [{ tool: 'get_order', kind: 'error', status: 502 }] },
    });
    const conversation = provider.openSession({ testCase });
    const ctx = { testCase, expectedIndex: null };
    expect(await conversation.execute({ tool_name: 'get_order', arguments: { order_id: 'ORD-5001' } }, ctx)).toMatchObject({
      ok: false,
      status: 502,
      scripted: true,
      errorCode: 'execution_failed',
    });
    await conversation.execute({ tool_name: 'issue_refund', arguments: { order_id: 'ORD-5001', amount: 5, reason: 'x' } }, ctx);
    // the same conversation sees its own change; another one starts fresh
    expect(await conversation.execute({ tool_name: 'get_order', arguments: { order_id: 'ORD-5001' } }, ctx)).toMatchObject({
      ok: true,
      data: { refunded_total: 5 },
    });
    const other = provider.openSession({ testCase });
    await other.execute({ tool_name: 'get_order', arguments: { order_id: 'ORD-5001' } }, ctx); // its own scripted failure
    expect(await other.execute({ tool_name: 'get_order', arguments: { order_id: 'ORD-5001' } }, ctx)).toMatchObject({
      data: { refunded_total: 0 },
    });
    const plain = { ...testCase, environment: undefined };
    expect(await provider.execute({ tool_name: 'get_order', arguments: {} }, { testCase: plain, expectedIndex: null })).toMatchObject({
      ok: false,
      errorCode: 'no_recording',
      message: 'case refund names no environment, so the environment provider has nothing to run get_order on',
    });
    // a 4xx is not scripted: it blames the call
    expect(await conversation.execute({ tool_name: 'get_order', arguments: { order_id: 'ORD-1' } }, ctx)).not.toHaveProperty('scripted');
  });
});

/** Operations on different records, each one of: a refund on a delivered order, a reservation, a ticket, a priority change. */
const independentOps = fc.uniqueArray(
  fc.oneof(
    fc
      .record({ key: fc.constantFrom('ORD-5001', 'ORD-5002', 'ORD-5007'), amount: fc.integer({ min: 1, max: 20 }) })
      .map(({ key, amount }) => ({
        key,
        call: { tool_name: 'issue_refund', arguments: { order_id: key, amount, reason: 'r' } },
      })),
    fc
      .record({ key: fc.constantFrom('SKU-MUG', 'SKU-TEA', 'SKU-KETTLE'), quantity: fc.integer({ min: 1, max: 5 }) })
      .map(({ key, quantity }) => ({
        key,
        call: { tool_name: 'reserve_stock', arguments: { sku: key, quantity } },
      })),
    fc
      .constantFrom('CUS-1001', 'CUS-1004')
      .map((key) => ({ key, call: { tool_name: 'create_ticket', arguments: { customer_id: key, subject: 's' } } })),
    fc.constantFrom('high', 'low').map((priority) => ({
      key: 'TCK-CUS-1003-1',
      call: { tool_name: 'update_ticket', arguments: { ticket_id: 'TCK-CUS-1003-1', priority } },
    })),
  ),
  { selector: (op) => op.key, maxLength: 8 },
);

describe('retail order independence (property)', () => {
  it('operations on different records give the same final state in any order', () => {
    const env = CaseEnvironmentSchema.parse({ name: 'retail' });
    fc.assert(
      fc.property(independentOps, fc.func(fc.integer()), (ops, rank) => {
        const shuffled = [...ops].sort((a, b) => rank(a.key) - rank(b.key) || a.key.localeCompare(b.key));
        const one = replayCalls(
          env,
          ops.map((o) => o.call),
        );
        const two = replayCalls(
          env,
          shuffled.map((o) => o.call),
        );
        expect(one.answers.every((a) => a.answer.status === 200)).toBe(true);
        expect(two.state).toEqual(one.state);
      }),
      { numRuns: 150 },
    );
  });
});
