import type { TargetSystem } from '../../domain/index.js';

/**
 * Whether invoking this target executes tool calls itself (a tool loop), so it needs the run's stage-3 provider
 * (recorded, http, expected data, or an MCP server) before its first case: today the `openai` target with
 * `agentic_loop.enabled`. A target kind with its own loop adds its rule here.
 */
export function targetNeedsToolExecutor(target: TargetSystem): boolean {
  const settings = target.settings;
  switch (settings.kind) {
    case 'openai':
      return settings.agentic_loop?.enabled === true;
    default:
      return false;
  }
}
