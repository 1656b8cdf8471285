import type { TargetSystem } from '../../domain/index.js';

/**
 * Whether invoking this target executes tool calls itself (a tool loop), so it needs the run's stage-3 provider
 * (recorded, http, expected data) before its first case: the `openai` and `anthropic` targets with
 * `agentic_loop.enabled`. A target with `mcp_servers` brings its own executor (the servers run the calls), so it
 * needs none, nor does `eval_mode: 'tool'` (no model). A target kind with its own loop adds its rule here.
 */
export function targetNeedsToolExecutor(target: TargetSystem): boolean {
  if (target.mcp_servers?.length || target.eval_mode === 'tool') return false;
  const settings = target.settings;
  switch (settings.kind) {
    case 'openai':
    case 'anthropic':
      return settings.agentic_loop?.enabled === true;
    default:
      return false;
  }
}
