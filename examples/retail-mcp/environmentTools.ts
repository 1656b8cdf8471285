import { startEnvironment } from '../../lib/environments/index.js';
import type { RetailTools } from './retailMcpServer.js';

/**
 * The tools of a stateful environment (lib/environments) for the MCP server: `--environment retail[:initial_state]`.
 * One instance per call of this function, started from the named initial state: its operations change its state, so an
 * MCP-driven agent changes real state (a refund shows on the order it then reads). Unknown names throw, naming them.
 */
export function environmentTools(spec: string): RetailTools & { state(): unknown } {
  const [name, initialState = 'default'] = spec.split(':');
  const instance = startEnvironment(name ?? '', initialState);
  return { catalog: instance.definition.catalog, call: (tool, args) => instance.call(tool, args), state: () => instance.state() };
}
