import { timingSafeEqual } from 'node:crypto';
import type { AuthLevel } from './router.js';

/** Keys the local host accepts: `function` opens authLevel 'function'; `admin` opens both 'function' and 'admin'. */
export interface HostKeys {
  function: string;
  admin: string;
  /** The durable-task system key (Azure's `durabletask_extension`): opens `/runtime/webhooks/durabletask` (so does `admin`). */
  durableTask?: string;
}

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The local key rule: 'anonymous' is open; otherwise the key comes from the `x-functions-key` header or the
 * `code` query parameter, and must equal the function key or the admin key ('function') or the admin key ('admin').
 */
export function isAuthorized(level: AuthLevel, presentedKey: string | undefined, keys: HostKeys): boolean {
  if (level === 'anonymous') return true;
  if (presentedKey === undefined || presentedKey === '') return false;
  if (sameKey(presentedKey, keys.admin)) return true;
  return level === 'function' && sameKey(presentedKey, keys.function);
}
