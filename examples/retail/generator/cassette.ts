import { canonicalCallKey } from '../../../lib/domain/index.js';
import { cassetteEntryFor, type CassetteEntry } from '../../../lib/ports/cassette.js';
import { simulateApi } from './api/simulateApi.js';
import { recordedData } from './api/volatile.js';
import { RECORDED_AT } from './dates.js';
import type { Call } from './scenarios/types.js';
import type { World } from './world/types.js';

/**
 * One recorded response per distinct call (canonical key), in first-seen order: what the API answered when the
 * sample was recorded, errors included (a 404 for a mistyped id is what a live API returns, so replay sees it too).
 * Recording times advance a few hundred milliseconds per call, as a recording run would.
 */
export function buildCassette(world: World, calls: Iterable<Call>): CassetteEntry[] {
  const seen = new Set<string>();
  const entries: CassetteEntry[] = [];
  const start = Date.parse(RECORDED_AT);
  for (const c of calls) {
    const key = canonicalCallKey(c);
    if (seen.has(key)) continue;
    seen.add(key);
    const result = simulateApi(world, c);
    const at = new Date(start + entries.length * 370);
    entries.push(cassetteEntryFor({ tool_name: c.tool_name, arguments: c.arguments }, result.status, recordedData(result), at));
  }
  return entries;
}
