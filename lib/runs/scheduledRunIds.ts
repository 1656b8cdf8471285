import { createHash } from 'node:crypto';
import { CreateRunRequestSchema } from './createRun.js';

/** A fire time as scheduled run ids carry it: 2026-03-02T02:00:00.000Z -> 20260302T020000000Z. */
export function fireTimeStamp(fired: Date): string {
  return fired.toISOString().replace(/[^0-9TZ]/g, '');
}

/**
 * The ids the run of one client suite for one fire time may take, in order of preference; every id is a
 * function of (client, suite, fire time) only, so a redelivered timer computes the same ones.
 *
 * - the client's first suite: `sched-<client>-<fire time>`, the id every scheduled run had before clients ran
 *   all their suites, so runs stored before an upgrade are found again and never duplicated;
 * - its other suites: `sched-<client>-<suite>-<fire time>`;
 * - then `sched-<24 hex of sha256(client, suite, fire time)>-<fire time>`, used when the readable id is not a
 *   valid run id (over 100 characters, or characters outside `A-Za-z0-9._:-`), or when it is taken by another
 *   client's run (ids may contain `-`: client "a-b" and client "a" with suite "b" read alike).
 */
export function scheduledRunIds(clientId: string, suiteId: string, suiteIndex: number, fired: Date): string[] {
  const stamp = fireTimeStamp(fired);
  const readable = suiteIndex === 0 ? `sched-${clientId}-${stamp}` : `sched-${clientId}-${suiteId}-${stamp}`;
  const digest = createHash('sha256')
    .update(JSON.stringify([clientId, suiteId, stamp]))
    .digest('hex')
    .slice(0, 24);
  const hashed = `sched-${digest}-${stamp}`;
  return CreateRunRequestSchema.shape.run_id.safeParse(readable).success ? [readable, hashed] : [hashed];
}
