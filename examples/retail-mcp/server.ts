/**
 * The retail MCP server. `npx tsx examples/retail-mcp/server.ts` speaks MCP on stdin/stdout (a client spawns it);
 * `--http [--port N]` serves Streamable HTTP at http://127.0.0.1:N/mcp (RETAIL_MCP_TOKEN set: Bearer token required).
 * `--environment retail[:initial_state]` serves the stateful retail environment (lib/environments) instead of the
 * recorded sample: its operations change state, one instance for the process (stdio) or per session (HTTP).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serveStreamableHttp } from './httpTransport.js';
import { RetailApi } from './retailApi.js';
import { createRetailMcpServer, type RetailTools } from './retailMcpServer.js';
import { environmentTools } from './environmentTools.js';

const argv = process.argv.slice(2);
const environmentIndex = argv.indexOf('--environment');
const environment = environmentIndex >= 0 ? (argv[environmentIndex + 1] ?? 'retail') : undefined;
const tools = (): RetailTools => (environment ? environmentTools(environment) : api);
const api = new RetailApi();
if (argv.includes('--http')) {
  const portIndex = argv.indexOf('--port');
  const port = portIndex >= 0 ? Number(argv[portIndex + 1]) : 0;
  const token = process.env.RETAIL_MCP_TOKEN;
  const served = await serveStreamableHttp(() => createRetailMcpServer(tools()), { port, ...(token ? { token } : {}) });
  process.stdout.write(`${JSON.stringify({ url: served.url })}\n`);
  const stop = () => void served.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} else {
  await createRetailMcpServer(tools()).connect(new StdioServerTransport());
}
