/**
 * Test fixture for the import crash test: starts the embedded platform on a data dir, creates a key with every
 * role, prints one JSON line {"event":"ready", url, key} and keeps serving until killed.
 */
import { parseArgs } from 'node:util';
import { createApiKey } from '../../api/index.js';
import { ROLES } from '../../domain/index.js';
import { silentLogger } from '../../host/index.js';
import { startEmbeddedPlatform } from '../../platform/embedded.js';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } } });
const platform = await startEmbeddedPlatform({ dataDir: values['data-dir']!, port: 0, logger: silentLogger });
const { key } = await createApiKey(platform.services.apiKeys, { name: 'import-crash-test', roles: [...ROLES] }, platform.services.clock);
console.log(JSON.stringify({ event: 'ready', url: platform.url, key }));
