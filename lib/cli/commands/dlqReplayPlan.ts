import type { DeadLetterMessage } from '../../ports/index.js';

/** A reason dead letters failed with again after being replayed, and which ones. */
export interface RepeatedFailure {
  reason: string;
  description: string;
  message_ids: string[];
}

export interface ReplayPlan {
  /** dead letters to replay */
  replay: string[];
  /** dead letters that already failed once for the same reason after a replay: replaying them again would loop */
  repeated: RepeatedFailure[];
}

/**
 * Which dead letters a replay sends back. A replayed copy carries the reason it had been dead-lettered with
 * (application properties `DeadLetterReason` / `DeadLetterErrorDescription`, as Service Bus keeps them); a copy
 * dead-lettered again with the same reason and description would fail the same way again, so it is held back
 * (grouped by reason, for the report) unless `force`.
 */
export function planReplay(deadLetters: readonly DeadLetterMessage[], options: { force?: boolean } = {}): ReplayPlan {
  const replay: string[] = [];
  const repeated = new Map<string, RepeatedFailure>();
  for (const m of deadLetters) {
    const before = m.applicationProperties.DeadLetterReason;
    const beforeDescription = m.applicationProperties.DeadLetterErrorDescription;
    const again = before === m.deadLetterReason && (beforeDescription ?? '') === m.deadLetterErrorDescription;
    if (!again || options.force) {
      replay.push(m.messageId);
      continue;
    }
    const key = `${m.deadLetterReason}\u0000${m.deadLetterErrorDescription}`;
    const group = repeated.get(key) ?? { reason: m.deadLetterReason, description: m.deadLetterErrorDescription, message_ids: [] };
    group.message_ids.push(m.messageId);
    repeated.set(key, group);
  }
  return { replay: [...new Set(replay)], repeated: [...repeated.values()] };
}
