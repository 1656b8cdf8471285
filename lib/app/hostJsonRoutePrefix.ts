import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './packageRoot.js';

/**
 * host.json's `extensions.http.routePrefix` (the Functions default `api` when absent), so the embedded host routes
 * exactly as Azure does. The platform's host.json sets "" (the dashboard answers `/`; API routes carry `api/`).
 */
export function hostJsonRoutePrefix(root: string = packageRoot()): string {
  const hostJson = JSON.parse(readFileSync(join(root, 'host.json'), 'utf8')) as { extensions?: { http?: { routePrefix?: unknown } } };
  const prefix = hostJson.extensions?.http?.routePrefix;
  if (prefix === undefined) return 'api';
  if (typeof prefix !== 'string') throw new Error(`host.json extensions.http.routePrefix must be a string, got ${JSON.stringify(prefix)}`);
  return prefix;
}
