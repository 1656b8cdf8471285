import type { StageName, StageResult } from '../../domain/index.js';

/** A stage that did not run: disabled by the config, or stopped by the syntax gate. Score null, never 0. */
export function skippedStage(stage: StageName, message: string): StageResult {
  return { stage, status: 'skipped', passed: false, score: null, message, duration_ms: 0 };
}
