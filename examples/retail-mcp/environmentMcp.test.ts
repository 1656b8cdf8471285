/**
 * The retail MCP server serving the stateful retail environment (`--environment retail`), through the real MCP SDK
 * client: an MCP-driven agent changes real state (a refund shows on the order it then reads), rejected calls are tool
 * errors with the API's status, each HTTP session starts from the initial state, and state is kept per conversation key.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { RETAIL_CATALOG } from '../../lib/environments/index.js';
import { MCP_SESSION_META_KEY } from '../../lib/targets/index.js';
import { environmentTools } from './environmentTools.js';
import { serveStreamableHttp } from './httpTransport.js';
import { createRetailMcpServer } from './retailMcpServer.js';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
const refund = { order_id: 'ORD-5001', amount: 12.5, reason: 'chipped mug' };

describe('the retail MCP server serving the retail environment', () => {
  it('over stdio: the environment catalog, state that changes, and rejected calls as tool errors', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', SERVER, '--environment', 'retail:default'],
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(RETAIL_CATALOG.tools.map((t) => t.name));
      const refunded = await client.callTool({ name: 'issue_refund', arguments: refund });
      expect(refunded.structuredContent).toEqual({ refund_id: 'REF-ORD-5001-1', order_id: 'ORD-5001', amount: 12.5, refundable: 19.75 });
      const order = await client.callTool({ name: 'get_order', arguments: { order_id: 'ORD-5001' } });
      expect(order.structuredContent).toMatchObject({ refunded_total: 12.5, refundable: 19.75 });
      const tooMuch = await client.callTool({ name: 'issue_refund', arguments: { ...refund, amount: 30 } });
      expect(tooMuch.isError).toBe(true);
      expect(JSON.parse((tooMuch.content as Array<{ text: string }>)[0]!.text)).toEqual({
        status: 422,
        error: { error: 'validation_error', message: 'amount 30 exceeds the refundable 19.75 of order ORD-5001' },
      });
    } finally {
      await client.close();
    }
  }, 90_000);

  it('keys state by the conversation (`_meta["evalplatform/session"]`): each key its own instance, carried across its calls', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', SERVER, '--environment', 'retail'],
        stderr: 'ignore',
      }),
    );
    try {
      const call = (session: string | undefined, name: string, args: Record<string, unknown>) =>
        client.callTool({ name, arguments: args, ...(session ? { _meta: { [MCP_SESSION_META_KEY]: session } } : {}) });
      const order = async (session?: string) =>
        (await call(session, 'get_order', { order_id: 'ORD-5003' })).structuredContent as { status: string };
      await call('conversation-1', 'cancel_order', { order_id: 'ORD-5003' });
      // the same conversation sees its cancellation (a later turn), another one and the key-less instance do not
      expect([(await order('conversation-1')).status, (await order('conversation-2')).status, (await order()).status]).toEqual([
        'cancelled',
        'placed',
        'placed',
      ]);
      const again = await call('conversation-1', 'cancel_order', { order_id: 'ORD-5003' });
      expect(again.isError).toBe(true); // 409: it is no longer placed in that conversation
    } finally {
      await client.close();
    }
  }, 90_000);

  it('over Streamable HTTP: each session gets a fresh instance from the initial state', async () => {
    const served = await serveStreamableHttp(() => createRetailMcpServer(environmentTools('retail')));
    try {
      const session = async () => {
        const client = new Client({ name: 'test', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
        return client;
      };
      const first = await session();
      await first.callTool({ name: 'issue_refund', arguments: refund });
      const second = await session();
      const fresh = await second.callTool({ name: 'get_order', arguments: { order_id: 'ORD-5001' } });
      expect(fresh.structuredContent).toMatchObject({ refunded_total: 0 });
      const seen = await first.callTool({ name: 'get_order', arguments: { order_id: 'ORD-5001' } });
      expect(seen.structuredContent).toMatchObject({ refunded_total: 12.5 });
      await first.close();
      await second.close();
    } finally {
      await served.close();
    }
  }, 60_000);

  it('an unknown environment or initial state is refused, naming it', () => {
    expect(() => environmentTools('retail:winter')).toThrow(
      'environment "retail" has no initial state "winter" (it has: default, low_stock, empty)',
    );
    expect(() => environmentTools('bank')).toThrow('unknown environment "bank" (known: retail)');
  });
});
