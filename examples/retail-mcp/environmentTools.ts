import { type EnvironmentInstance, startEnvironment } from '../../lib/environments/index.js';
import type { RetailTools } from './retailMcpServer.js';

/** Conversations whose state the server keeps at once; the least recently used is dropped beyond it. */
const MAX_SESSIONS = 1024;

/**
 * The tools of a stateful environment (lib/environments) for the MCP server: `--environment retail[:initial_state]`.
 * Its operations change state, so an MCP-driven agent changes real state (a refund shows on the order it then reads).
 * State is kept per conversation: a call whose request carries a session key (`_meta["evalplatform/session"]`, which
 * the platform sends, one key per case invocation for all its turns) runs on that session's own instance, started
 * from the named initial state on its first call; a call without one runs on the instance of this call of
 * `environmentTools` (one per stdio process, one per HTTP session). So two cases never see each other's changes even
 * though the platform keeps one server process for all of them, and turn 2 of a conversation sees what turn 1 did.
 * Unknown names throw, naming them.
 */
export function environmentTools(spec: string): RetailTools & { state(session?: string): unknown; sessions(): number } {
  const [name = '', initialState = 'default'] = spec.split(':');
  const shared = startEnvironment(name, initialState);
  const bySession = new Map<string, EnvironmentInstance>();
  const instance = (session?: string): EnvironmentInstance => {
    if (session === undefined) return shared;
    let found = bySession.get(session);
    if (found)
      bySession.delete(session); // re-inserted below: most recently used last
    else found = startEnvironment(name, initialState);
    bySession.set(session, found);
    if (bySession.size > MAX_SESSIONS) bySession.delete(bySession.keys().next().value!);
    return found;
  };
  return {
    catalog: shared.definition.catalog,
    call: (tool, args, session) => instance(session).call(tool, args),
    state: (session) => (session === undefined ? shared.state() : bySession.get(session)?.state()),
    sessions: () => bySession.size,
  };
}
