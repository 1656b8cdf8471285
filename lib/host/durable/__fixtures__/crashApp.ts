/**
 * The app the crash test's child processes run (crashWorker.ts, or the host CLI): a fan-out whose activities
 * apply an idempotent effect (INSERT OR IGNORE keyed by their input), record every execution, report progress on
 * stdout and take a little time.
 */
import * as df from 'durable-functions';
import type { OrchestrationContext } from 'durable-functions';
import { effectsDb } from './crashState.js';

df.app.activity('applyEffect', {
  handler: async (key: unknown) => {
    const db = effectsDb();
    db.prepare('INSERT INTO fx_executions (key, pid) VALUES (?, ?)').run(String(key), process.pid);
    db.prepare('INSERT OR IGNORE INTO fx_effects (key, pid) VALUES (?, ?)').run(String(key), process.pid);
    process.stdout.write(`progress ${String(key)}\n`);
    await new Promise((resolve) => setTimeout(resolve, 25));
    return Number(key);
  },
});

df.app.orchestration('crashFanOut', function* (context: OrchestrationContext) {
  const { count } = context.df.getInput() as { count: number };
  const values = (yield context.df.Task.all(
    Array.from({ length: count }, (_, i) => context.df.callActivity('applyEffect', i)),
  )) as number[];
  return values.reduce((a, b) => a + b, 0);
});
