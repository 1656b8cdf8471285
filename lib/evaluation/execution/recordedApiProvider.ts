import { canonicalCallKey, type ToolCall } from '../../domain/index.js';
import {
  type ApiProvider,
  type ApiResponse,
  cassetteEntryFor,
  type CassetteStore,
  elapsedMs,
  type ExecuteContext,
  ExecutionConfigurationError,
} from '../../ports/index.js';

export type RecordingMode = 'replay' | 'record';

export interface RecordedApiProviderOptions {
  cassette: CassetteStore;
  mode: RecordingMode;
  /** the live API, required in record mode */
  live?: ApiProvider;
  /** the recording time; defaults to the wall clock */
  now?: () => Date;
}

const KEY_CHARS_IN_MESSAGE = 300;

/**
 * Cassette record/replay, keyed by the canonical call key (tool name + key-sorted arguments), so argument order
 * and whitespace never matter but argument values must be identical to the recorded ones.
 * - replay: answers from the cassette; a miss is `no_recording` naming the key. The network is never touched.
 * - record: calls `live` for every call (refreshing what was recorded), appends successful responses only
 *   (a 5xx or a timeout is not worth freezing), and returns the live response either way.
 */
export class RecordedApiProvider implements ApiProvider {
  readonly kind = 'recorded' as const;
  private readonly cassette: CassetteStore;
  private readonly mode: RecordingMode;
  private readonly live: ApiProvider | undefined;
  private readonly now: () => Date;

  constructor(options: RecordedApiProviderOptions) {
    if (options.mode === 'record' && !options.live) {
      throw new ExecutionConfigurationError('recorded provider in record mode needs a live provider to record from');
    }
    this.cassette = options.cassette;
    this.mode = options.mode;
    this.live = options.live;
    this.now = options.now ?? (() => new Date());
  }

  async execute(call: ToolCall, context: ExecuteContext): Promise<ApiResponse> {
    context.abortSignal?.throwIfAborted();
    return this.mode === 'record' && this.live ? this.record(this.live, call, context) : this.replay(call);
  }

  private replay(call: ToolCall): ApiResponse {
    const started = performance.now();
    const key = canonicalCallKey(call);
    const entry = this.cassette.get(key);
    if (!entry) {
      const shown = key.length > KEY_CHARS_IN_MESSAGE ? `${key.slice(0, KEY_CHARS_IN_MESSAGE)}…` : key;
      return {
        ok: false,
        errorCode: 'no_recording',
        message: `no recorded response for ${shown}; record it (execution.mode "record") or check the call's arguments`,
        durationMs: elapsedMs(started),
      };
    }
    return { ok: true, status: entry.status, data: entry.data, durationMs: elapsedMs(started) };
  }

  private async record(live: ApiProvider, call: ToolCall, context: ExecuteContext): Promise<ApiResponse> {
    const response = await live.execute(call, context);
    if (response.ok) this.cassette.append(cassetteEntryFor(call, response.status, response.data, this.now()));
    return response;
  }
}
