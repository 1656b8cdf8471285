import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TargetSystem, TestCase } from '../../domain/index.js';
import { TargetConfigurationError } from '../errors.js';
import type { InvokeOptions, TargetInvocation, TargetInvoker } from '../../ports/index.js';
import { STALE, type ReplayIndex } from './replayIndex.js';
import { sharedReplayOutputs, type ReplayOutputsCache } from './replayOutputsCache.js';
import { invocationFromLine } from './replayRecord.js';

type ReplaySettings = Extract<TargetSystem['settings'], { kind: 'replay' }>;

export interface ReplayTargetOptions {
  /** the directory a relative `outputs_path` is resolved against (default: the process's working directory) */
  baseDir?: string;
  /** default `replay` */
  targetId?: string;
  /** default: the process-wide cache (one load per file, shared by every invoker) */
  cache?: ReplayOutputsCache;
}

/**
 * Replays recorded outputs: `settings.outputs_path` is a JSONL file of one line per test case (see replayRecord.ts).
 * The file is loaded on first use (or by `load()`), shared by path across invokers, and reloaded when it changes.
 * A case without a line is `target_error` "no recorded output for test case X in FILE". Throws
 * TargetConfigurationError when the file cannot be read; the caller's abort is honoured before the lookup.
 */
export class ReplayTarget implements TargetInvoker {
  readonly kind = 'replay' as const;
  readonly targetId: string;
  /** the absolute path of the outputs file */
  readonly path: string;
  private readonly cache: ReplayOutputsCache;

  constructor(settings: ReplaySettings, options: ReplayTargetOptions = {}) {
    this.targetId = options.targetId ?? 'replay';
    this.path = resolve(options.baseDir ?? process.cwd(), settings.outputs_path);
    this.cache = options.cache ?? sharedReplayOutputs;
  }

  /** Loads the file now (so a bad path fails at start-up, not on the first case); returns the number of cases. */
  async load(): Promise<number> {
    const found = this.cache.lookup(this.path);
    return (found instanceof Promise ? await this.loaded(found) : found).count;
  }

  async invoke(testCase: TestCase, options: InvokeOptions = {}): Promise<TargetInvocation> {
    options.abortSignal?.throwIfAborted();
    for (let attempt = 1; ; attempt++) {
      const found = this.cache.lookup(this.path);
      const index = found instanceof Promise ? await this.loaded(found) : found;
      const line = index.line(testCase.id);
      if (line === undefined) return this.miss(testCase.id, index);
      if (line !== STALE) return invocationFromLine(line, testCase.id, this.path);
      // the file was rewritten in place since it was indexed: index it again (once; then it is a miss)
      if (attempt > 1) return this.miss(testCase.id, index);
      this.cache.recheck(this.path);
    }
  }

  private async loaded(loading: Promise<ReplayIndex>): Promise<ReplayIndex> {
    try {
      return await loading;
    } catch (error) {
      const why = existsSync(this.path) ? `cannot be read (${(error as Error).message})` : 'does not exist';
      throw new TargetConfigurationError('settings.outputs_path', `target ${this.targetId}: replay outputs file ${this.path} ${why}`, {
        cause: error,
      });
    }
  }

  private miss(testCaseId: string, index: ReplayIndex): TargetInvocation {
    const { count, first_line } = index.unreadable;
    const note =
      count === 0 ? '' : ` (${count} line${count === 1 ? '' : 's'} of the file could not be read, the first at line ${first_line})`;
    return {
      ok: false,
      error_code: 'target_error',
      message: `no recorded output for test case ${testCaseId} in ${this.path}${note}`,
      latency_ms: 0,
      attempts: 1,
    };
  }
}
