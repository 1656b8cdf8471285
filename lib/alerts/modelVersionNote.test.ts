import { describe, expect, it } from 'vitest';
import { modelVersionNote } from './modelVersionNote.js';

describe('modelVersionNote', () => {
  it.each<[string, string, string[], string[], string | undefined]>([
    [
      'a new model on the same target',
      't1',
      ['gpt-4.1-2025-04-14'],
      ['gpt-4.1-2025-06-01'],
      'model version changed since baseline run base: gpt-4.1-2025-04-14 -> gpt-4.1-2025-06-01',
    ],
    ['one more version seen', 't1', ['m1'], ['m1', 'm2'], 'model version changed since baseline run base: m1 -> m1, m2'],
    ['the same versions in another order', 't1', ['m2', 'm1'], ['m1', 'm2'], undefined],
    ['no version recorded in the baseline', 't1', [], ['m1'], undefined],
    ['no version recorded now', 't1', ['m1'], [], undefined],
    ['a baseline on another target', 't2', ['m1'], ['m2'], undefined],
  ])('%s', (_label, baselineTarget, before, after, note) => {
    expect(modelVersionNote({ target_id: 't1' }, { id: 'base', target_id: baselineTarget }, before, after)).toBe(note);
  });
});
