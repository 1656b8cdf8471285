import { describe, expect, it } from 'vitest';
import { installSignalHandlers } from './signals.js';

describe('installSignalHandlers', () => {
  const cases: Array<[string, () => Promise<void>, NodeJS.Signals[], number[]]> = [
    ['a clean stop exits 0', () => Promise.resolve(), ['SIGTERM'], [0]],
    ['a failed stop exits 1', () => Promise.reject(new Error('stuck')), ['SIGINT'], [1]],
    ['a second signal exits 130 at once', () => new Promise<void>(() => undefined), ['SIGTERM', 'SIGINT'], [130]],
  ];
  it.each(cases)('%s', async (_, stop, signals, expected) => {
    const exits: number[] = [];
    let stops = 0;
    const uninstall = installSignalHandlers(
      {
        stop: () => {
          stops += 1;
          return stop();
        },
      },
      { exit: (code) => void exits.push(code), signals: ['SIGTERM', 'SIGINT'] },
    );
    try {
      for (const signal of signals) process.emit(signal, signal);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect({ exits, stops }).toEqual({ exits: expected, stops: 1 });
    } finally {
      uninstall();
    }
    expect(process.listenerCount('SIGTERM')).toBe(0);
  });
});
