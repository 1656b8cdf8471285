import { join, resolve } from 'node:path';
import { FolderAnalyticsSink } from '../adapters/embedded/index.js';
import type { AnalyticsSink } from '../ports/index.js';

/**
 * The embedded analytics export folder: EVALP_ANALYTICS_DIR (relative to `baseDir`), default `<dataDir>/exports`;
 * none when EVALP_ANALYTICS_EXPORT is `off`.
 */
export function embeddedAnalyticsSink(
  env: Readonly<Record<string, string | undefined>>,
  dataDir: string,
  baseDir: string,
): AnalyticsSink | undefined {
  if (env.EVALP_ANALYTICS_EXPORT?.trim() === 'off') return undefined;
  return new FolderAnalyticsSink(resolve(baseDir, env.EVALP_ANALYTICS_DIR?.trim() || join(dataDir, 'exports')));
}
