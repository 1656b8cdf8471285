/**
 * Child process of the crash test: `node --import tsx crashWorker.ts <dataDir> <count>`. Runs a TaskHub over the
 * data directory's database, starts the fan-out unless it exists, and prints `completed <output>` when done.
 */
import { captureRegistrations } from '../../capture.js';
import { openHostDatabase } from '../../database.js';
import { simpleInvoke } from '../durable.test-helpers.js';
import { TaskHub } from '../taskHub.js';
import { crashState, createEffectTables } from './crashState.js';

const [dataDir, countText] = process.argv.slice(2);
if (!dataDir || !countText) throw new Error('usage: crashWorker.ts <dataDir> <count>');
const db = openHostDatabase(dataDir);
createEffectTables(db);
crashState.db = db;
const registrations = await captureRegistrations(() => import('./crashApp.js'));
const hub = new TaskHub(db, registrations, simpleInvoke, { maxConcurrentActivities: 4, pollIntervalMs: 20 });
hub.start();
const instanceId = 'crash-fan-out';
if (!hub.getStatus(instanceId)) hub.startNew('crashFanOut', { instanceId, input: { count: Number(countText) } });
process.stdout.write(`started ${process.pid}\n`);
const final = await hub.waitForCompletion(instanceId, { timeoutInMs: 60_000 });
process.stdout.write(`completed ${final.runtimeStatus} ${JSON.stringify(final.output)}\n`);
await hub.stop();
db.close();
