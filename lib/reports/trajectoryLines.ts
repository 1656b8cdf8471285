import type { Trajectory } from '../domain/index.js';

/** How many trajectory lines a failing case shows, and how long a shown value may be. */
export const MAX_TRAJECTORY_LINES = 12;
const MAX_VALUE_CHARS = 100;

/**
 * An agent's trajectory as short lines for the failure view, in order: each model turn (its text, the calls it asked
 * for, tokens) and each call (arguments, then the result, the error, or why it was not executed), e.g.
 * `turn 1: "Let me look the customer up." (1 call, 60+12 tokens)` and
 * `  find_customer {"email":"ann@example.com"} → {"customer_id":"C-42"}`. At most MAX_TRAJECTORY_LINES lines.
 */
export function trajectoryLines(trajectory: Trajectory | undefined): string[] {
  if (!trajectory) return [];
  const lines: string[] = [];
  for (const step of trajectory.steps) {
    if (step.kind === 'model') {
      const said = step.text === null ? 'no text' : JSON.stringify(cut(step.text));
      lines.push(
        `turn ${step.turn}: ${said} (${step.calls} call${step.calls === 1 ? '' : 's'}, ${step.input_tokens}+${step.output_tokens} tokens)`,
      );
      continue;
    }
    const args =
      step.arguments === null
        ? `(unreadable arguments ${JSON.stringify(cut(step.raw_arguments ?? ''))})`
        : cut(JSON.stringify(step.arguments));
    const outcome = !step.executed
      ? `not executed: ${step.error ?? ''}`
      : step.ok
        ? `→ ${cut(JSON.stringify(step.result ?? null))}`
        : `→ error${step.status === undefined ? '' : ` ${step.status}`}: ${cut(step.error ?? '')}`;
    lines.push(`  ${step.tool_name} ${args} ${outcome}`);
  }
  if (trajectory.stop === 'turn_cap') lines.push(`stopped at the turn cap (${trajectory.turns} turns)`);
  return lines.length > MAX_TRAJECTORY_LINES
    ? [...lines.slice(0, MAX_TRAJECTORY_LINES - 1), `… and ${lines.length - MAX_TRAJECTORY_LINES + 1} more steps`]
    : lines;
}

function cut(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}
