import { describe, expect, it } from 'vitest';
import type { PageOptions } from '../../ports/paging.js';
import { pageWindow } from './pageWindow.js';

describe('pageWindow', () => {
  it.each<[PageOptions | undefined, { limit: number; offset: number }]>([
    [undefined, { limit: 50, offset: 0 }],
    [{}, { limit: 50, offset: 0 }],
    [
      { limit: 10, offset: 20 },
      { limit: 10, offset: 20 },
    ],
    [{ limit: 5_000 }, { limit: 1_000, offset: 0 }],
    [
      { limit: 0, offset: -5 },
      { limit: 1, offset: 0 },
    ],
    [
      { limit: 7.9, offset: 2.5 },
      { limit: 7, offset: 2 },
    ],
    [
      { limit: Number.NaN, offset: Number.POSITIVE_INFINITY },
      { limit: 50, offset: 0 },
    ],
  ])('%j -> %j', (options, window) => {
    expect(pageWindow(options)).toEqual(window);
  });
});
