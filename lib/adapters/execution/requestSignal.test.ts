import { getEventListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { requestSignal } from './requestSignal.js';

describe('requestSignal', () => {
  it('aborts with a TimeoutError when the timeout passes', async () => {
    const request = requestSignal(20);
    await sleep(40);
    expect({ aborted: request.signal.aborted, timedOut: request.timedOut(), reason: (request.signal.reason as Error).name }).toEqual({
      aborted: true,
      timedOut: true,
      reason: 'TimeoutError',
    });
    request.dispose();
  });

  it("follows the caller's signal, with its reason", () => {
    const caller = new AbortController();
    const request = requestSignal(10_000, caller.signal);
    caller.abort(new Error('stop'));
    expect({ aborted: request.signal.aborted, timedOut: request.timedOut(), reason: (request.signal.reason as Error).message }).toEqual({
      aborted: true,
      timedOut: false,
      reason: 'stop',
    });
    request.dispose();
  });

  it('leaves nothing attached to a long-lived caller signal after dispose, and no timer firing', async () => {
    const caller = new AbortController();
    const requests = Array.from({ length: 100 }, () => requestSignal(10, caller.signal));
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(100);
    for (const request of requests) request.dispose();
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    await sleep(30);
    expect(requests.some((r) => r.signal.aborted)).toBe(false);
  });
});
