// Test support: an MCP server (the SDK's McpServer over stdio) that misbehaves on purpose.
//   lookup {id}       answers {"id", "value"}; ids starting with "missing" are a tool error (isError)
//   crash_once {id}   the first call ever (marker file FLAKY_MCP_MARKER absent) writes the marker and kills the process
//                     before answering; every later call (a restarted process) answers like lookup
//   hang {}           never answers
// FLAKY_MCP_TOOLS_VERSION=2 adds a tool (a changed tool list). Each call is appended to FLAKY_MCP_LOG (pid, tool, id).
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'flaky', version: '1.0.0' });
const log = (tool, id) => {
  if (process.env.FLAKY_MCP_LOG) appendFileSync(process.env.FLAKY_MCP_LOG, `${JSON.stringify({ pid: process.pid, tool, id })}\n`);
};
const answer = (id) =>
  id.startsWith('missing')
    ? { content: [{ type: 'text', text: JSON.stringify({ status: 404, error: `no record ${id}` }) }], isError: true }
    : {
        content: [{ type: 'text', text: JSON.stringify({ id, value: `value of ${id}` }) }],
        structuredContent: { id, value: `value of ${id}` },
      };

server.registerTool('lookup', { description: 'Look a record up by id.', inputSchema: { id: z.string() } }, ({ id }) => {
  log('lookup', id);
  return answer(id);
});
server.registerTool(
  'crash_once',
  { description: 'Like lookup; the first call ever crashes the server.', inputSchema: { id: z.string() } },
  ({ id }) => {
    const marker = process.env.FLAKY_MCP_MARKER;
    log('crash_once', id);
    if (marker && !existsSync(marker)) {
      writeFileSync(marker, String(process.pid));
      process.exit(3);
    }
    return answer(id);
  },
);
server.registerTool('hang', { description: 'Never answers.', inputSchema: {} }, () => {
  log('hang', '');
  return new Promise(() => {});
});
if (process.env.FLAKY_MCP_TOOLS_VERSION === '2') {
  server.registerTool('lookup_v2', { description: 'Added in version 2.', inputSchema: { id: z.string() } }, ({ id }) => answer(id));
}
await server.connect(new StdioServerTransport());
