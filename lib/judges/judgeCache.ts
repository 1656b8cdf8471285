import type { JudgeVerdict } from '../ports/index.js';

/**
 * Where LLM verdicts are kept so the same question is never paid for twice. Keys are content hashes of
 * (model, prompt messages, schema version); `get` resolves undefined on a miss.
 */
export interface JudgeCache<V = JudgeVerdict> {
  get(key: string): Promise<V | undefined>;
  set(key: string, value: V): Promise<void>;
}

/** An in-memory least-recently-used cache holding at most `maxEntries` values (a Map keeps insertion order). */
export class LruJudgeCache<V = JudgeVerdict> implements JudgeCache<V> {
  readonly maxEntries: number;
  readonly #entries = new Map<string, V>();

  constructor(options: { maxEntries?: number } = {}) {
    const maxEntries = options.maxEntries ?? 10_000;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`LruJudgeCache maxEntries must be a positive integer, got ${maxEntries}`);
    }
    this.maxEntries = maxEntries;
  }

  get size(): number {
    return this.#entries.size;
  }

  async get(key: string): Promise<V | undefined> {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    // refresh: move to the most-recent end
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  async set(key: string, value: V): Promise<void> {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
  }
}
