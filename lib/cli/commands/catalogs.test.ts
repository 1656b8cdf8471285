import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCaseSchema, TestSuiteSchema } from '../../domain/index.js';
import { startTestApi, type TestApi } from '../../api/routes/apiTestPlatform.test-helpers.js';
import { runCommand } from './resourceCommands.test-helpers.js';
import { catalogsCommand } from './catalogs.js';

let api: TestApi;
let admin: string[];

const tool = (properties: Record<string, unknown>, required: string[]) => ({
  name: 'get_order',
  description: 'Fetch one order',
  parameters: { type: 'object', properties, required },
});

beforeAll(async () => {
  api = await startTestApi();
  admin = ['--url', api.platform.url, '--key', api.keys['test-admin']];
  const { stores } = api.platform.services;
  const now = new Date().toISOString();
  await stores.catalogs.upsert({
    id: 'shop@1',
    name: 'shop',
    tool_schema_version: '1',
    tools: [tool({ order_id: { type: 'string' } }, ['order_id'])],
  });
  await stores.catalogs.upsert({
    id: 'shop@2',
    name: 'shop',
    tool_schema_version: '2',
    tools: [tool({ order_ref: { type: 'string' }, channel: { type: 'string' } }, ['order_ref', 'channel'])],
  });
  await stores.testCases.upsertTestCases([
    TestCaseSchema.parse({
      id: 'o1',
      nl_query: 'where is A-1?',
      expected_tool_calls: [{ tool_name: 'get_order', arguments: { order_id: 'A-1' } }],
      tool_catalog: { name: 'shop', version: '1' },
    }),
  ]);
  await stores.suites.upsert(
    TestSuiteSchema.parse({
      id: 'orders',
      name: 'orders',
      kind: 'static',
      test_case_ids: ['o1'],
      tool_catalogs: { shop: '1' },
      created_at: now,
      updated_at: now,
    }),
  );
}, 60_000);

afterAll(async () => {
  await api?.stop();
});

const catalogs = (...args: string[]) => runCommand(catalogsCommand, args);

describe('evalp catalogs impact|migrate', () => {
  it('prints the breaks and the suggested flags, then migrates with a dry run first', async () => {
    const impact = (await catalogs('impact', 'shop', '2', ...admin)).out;
    expect(impact).toContain('shop@2: 1 of 1 cases no longer validate');
    expect(impact).toContain('suite orders (pinned to 1): 1 of 1 break');
    expect(impact).toMatch(/o1 {2}expected_tool_calls\/0 {2}parameter_renamed/);
    expect(impact).toMatch(/o1 {2}expected_tool_calls\/0 {2}required_parameter_added/);
    expect(impact).toContain('--rename-arg get_order.order_id=order_ref');

    const flags = ['--rename-arg', 'get_order.order_id=order_ref', '--default', 'get_order.channel="web"'];
    const dry = (await catalogs('migrate', 'shop', '2', ...flags, ...admin)).out;
    expect(dry).toContain('dry run (nothing written; --apply writes): 1 case(s) changed for shop@2');
    expect(dry).toContain('~ o1  expected_tool_calls/0/arguments/order_id: "order_id" -> "order_ref"');
    expect(dry).toContain('suite orders: 1 changed, 0 unchanged, 0 still break; pin 1 -> 2');
    expect((await api.platform.services.stores.testCases.getTestCase('o1'))!.expected_tool_calls[0]!.arguments).toEqual({
      order_id: 'A-1',
    });

    const applied = (await catalogs('migrate', 'shop', '2', ...flags, '--apply', ...admin)).out;
    expect(applied).toContain('migrated: 1 case(s) changed for shop@2');
    expect(applied).toContain('pin 1 -> 2, published version 2 (old bodies in version 1)');
    expect((await api.platform.services.stores.testCases.getTestCase('o1'))!.expected_tool_calls[0]!.arguments).toEqual({
      order_ref: 'A-1',
      channel: 'web',
    });
    expect((await catalogs('migrate', 'shop', '2', ...flags, '--apply', ...admin)).out).toContain('migrated: 0 case(s) changed');
    expect((await catalogs('impact', 'shop', '2', '--json', ...admin)).out).toContain('"broken": 0');
  });

  it('refuses a malformed operation naming the flag', async () => {
    await expect(catalogs('migrate', 'shop', '2', '--rename-arg', 'nodot', ...admin)).rejects.toThrow(
      /--rename-arg "nodot": expected <tool>.<argument>=<new name>/,
    );
  });
});
