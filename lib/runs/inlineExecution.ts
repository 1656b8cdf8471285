import type { ExecutionConfig } from '../domain/index.js';

/**
 * Whether a run's stage 3 runs inside the evaluate worker instead of through the execute queue: when its provider
 * answers in-process, without I/O that could wait, fail on its own or need scaling apart (a cassette replayed,
 * the case's expected data, a stateful environment simulator). There a queue hop (encode the case state, send,
 * lock, decode, settle) costs far more than the stage, so the case goes from the target's answer to stage 3 in one
 * step. Live providers (http, mcp, a cassette recording live calls) keep their own queue: retries, deferral on an
 * open circuit and scale-out stay per stage. The scorecard is the same either way.
 */
export function executesInline(execution: Pick<ExecutionConfig, 'enabled' | 'provider' | 'mode'>): boolean {
  if (!execution.enabled) return false;
  if (execution.provider === 'recorded') return execution.mode === 'replay';
  return execution.provider === 'expected' || execution.provider === 'environment';
}
