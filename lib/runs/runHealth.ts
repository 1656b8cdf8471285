import type { Run, RunHealth } from '../domain/index.js';
import type { RunQueueCountOptions, Services } from '../ports/index.js';
import { STAGE_QUEUE_NAMES } from './queues.js';

/** A run's health (RunHealthSchema), or null when the platform has no per-run queue figures (services.runQueues absent). */
export async function runHealth(
  services: Pick<Services, 'runQueues' | 'circuitOf'>,
  run: Pick<Run, 'id' | 'target_id' | 'error'>,
  options: RunQueueCountOptions = {},
): Promise<RunHealth | null> {
  if (!services.runQueues) return null;
  const counts = await services.runQueues.runQueueCounts(run.id, STAGE_QUEUE_NAMES, options);
  const circuit = services.circuitOf?.(run.target_id);
  const last = counts.last_dead_letter;
  return {
    circuit: circuit
      ? {
          state: circuit.state,
          consecutive_failures: circuit.consecutive_failures,
          ...(circuit.retry_in_ms !== undefined ? { retry_in_ms: circuit.retry_in_ms } : {}),
        }
      : null,
    waiting: counts.waiting,
    deferred: counts.scheduled,
    dead_lettered: counts.dead_lettered,
    last_error: last ? `${last.reason}: ${last.description} (${last.at})` : run.error,
  };
}
