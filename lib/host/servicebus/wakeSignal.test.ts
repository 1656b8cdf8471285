import { describe, expect, it } from 'vitest';
import { KeyedListeners } from './keyedListeners.js';
import { WakeSignal } from './wakeSignal.js';

describe('WakeSignal', () => {
  it('resolves a wait on notify, long before its timeout', async () => {
    const signal = new WakeSignal();
    const started = Date.now();
    const waiting = signal.wait(5_000);
    setTimeout(() => signal.notify(), 5);
    await waiting;
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('remembers a notify that came with nobody waiting, once', async () => {
    const signal = new WakeSignal();
    signal.notify();
    signal.notify();
    const started = Date.now();
    await signal.wait(5_000);
    expect(Date.now() - started).toBeLessThan(50);
    await signal.wait(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(19);
  });

  it('refuses a second concurrent waiter', async () => {
    const signal = new WakeSignal();
    const first = signal.wait(1_000);
    expect(() => signal.wait(1_000)).toThrow('one waiter');
    signal.notify();
    await first;
  });
});

describe('KeyedListeners', () => {
  it('calls the listeners of one key until they are removed', () => {
    const listeners = new KeyedListeners();
    const calls: string[] = [];
    const offA = listeners.on('q', () => calls.push('a'));
    listeners.on('q', () => calls.push('b'));
    listeners.on('other', () => calls.push('other'));
    listeners.emit('q');
    offA();
    listeners.emit('q');
    listeners.emit('nobody');
    expect(calls).toEqual(['a', 'b', 'b']);
  });
});
