import { statSync } from 'node:fs';
import { loadReplayIndex, type ReplayIndex } from './replayIndex.js';

export interface ReplayOutputsCacheOptions {
  /** how often (at most) a lookup stats the file to see whether it changed (default 1000 ms; 0: every lookup) */
  reloadCheckIntervalInMs?: number;
  /** millisecond clock (default performance.now) */
  now?: () => number;
}

interface Entry {
  index?: ReplayIndex;
  loading?: Promise<ReplayIndex>;
  checkedAt: number;
}

/**
 * Outputs files by absolute path, loaded once and shared by every ReplayTarget of the process. A lookup returns
 * the index synchronously on the hot path; at most once per `reloadCheckIntervalInMs` it stats the file and
 * reloads it when its mtime or size changed (lookups meanwhile wait for the new index). A failed first load is
 * not kept (the next lookup tries again); a failed reload keeps serving the previous index.
 */
export class ReplayOutputsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly interval: number;
  private readonly now: () => number;

  constructor(options: ReplayOutputsCacheOptions = {}) {
    this.interval = options.reloadCheckIntervalInMs ?? 1000;
    this.now = options.now ?? (() => performance.now());
  }

  /** The index of `path` (absolute), or a promise of it while it (re)loads. */
  lookup(path: string): ReplayIndex | Promise<ReplayIndex> {
    const entry = this.entries.get(path);
    if (!entry) {
      const fresh: Entry = { checkedAt: this.now() };
      this.entries.set(path, fresh);
      return this.load(path, fresh);
    }
    if (entry.loading) return entry.loading;
    const index = entry.index!;
    const now = this.now();
    if (now - entry.checkedAt < this.interval) return index;
    entry.checkedAt = now;
    const stat = statOrUndefined(path);
    if (!stat || (stat.mtimeMs === index.mtimeMs && stat.size === index.size)) return index; // gone: keep serving
    return this.load(path, entry);
  }

  /** Forget every file (tests; or to release memory when no run replays anymore), closing them. */
  clear(): void {
    for (const entry of this.entries.values()) entry.index?.close();
    this.entries.clear();
  }

  /** The next lookup of `path` checks the file at once (its index found the file changed under it). */
  recheck(path: string): void {
    const entry = this.entries.get(path);
    if (entry) entry.checkedAt = Number.NEGATIVE_INFINITY;
  }

  private load(path: string, entry: Entry): Promise<ReplayIndex> {
    const loading = loadReplayIndex(path).then(
      (index) => {
        entry.index?.close();
        entry.index = index;
        entry.loading = undefined;
        return index;
      },
      (error: unknown) => {
        entry.loading = undefined;
        if (entry.index) return entry.index;
        if (this.entries.get(path) === entry) this.entries.delete(path);
        throw error;
      },
    );
    entry.loading = loading;
    return loading;
  }
}

function statOrUndefined(path: string): { mtimeMs: number; size: number } | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The process-wide cache ReplayTargets use unless given another. Creating it does no I/O. */
export const sharedReplayOutputs = new ReplayOutputsCache();
