import { isJsonObject, type JsonObject } from '../../domain/index.js';
import { queryPath } from './responseExtraction.js';

/** The JSONPath settings of an agent endpoint's usage, model and entities (all optional). */
export interface UsagePaths {
  input_tokens_path?: string | undefined;
  output_tokens_path?: string | undefined;
  cost_path?: string | undefined;
  model_path?: string | undefined;
  entities_path?: string | undefined;
}

export interface ExtractedUsage {
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  client_version: string | null;
  entities?: JsonObject;
}

/**
 * Reads what an agent endpoint reports about its own work, so custom orchestrators are not $0 in cost comparisons:
 * tokens (a non-negative number, or numeric text; rounded to an integer), cost in USD, the model, and the entities it
 * resolved (an object, or JSON text of one). Several matches of one path are summed for tokens and cost (an
 * orchestrator that lists its sub-agents' usage, e.g. `$.usage[*].input_tokens`). Anything absent or unreadable is
 * 0 / null / left out: a missing figure never fails the answer.
 */
export function extractUsage(json: unknown, paths: UsagePaths): ExtractedUsage {
  const sum = (path: string | undefined): number => {
    if (!path) return 0;
    const value = queryPath(json, path);
    const values = Array.isArray(value) ? value : [value];
    let total = 0;
    for (const v of values) {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (Number.isFinite(n) && n > 0) total += n;
    }
    return total;
  };
  const model = paths.model_path ? queryPath(json, paths.model_path) : undefined;
  const usage: ExtractedUsage = {
    input_tokens: Math.round(sum(paths.input_tokens_path)),
    output_tokens: Math.round(sum(paths.output_tokens_path)),
    cost_usd: sum(paths.cost_path),
    client_version: typeof model === 'string' && model.trim() !== '' ? model : null,
  };
  if (paths.entities_path) {
    let entities: unknown = queryPath(json, paths.entities_path);
    if (typeof entities === 'string') {
      try {
        entities = JSON.parse(entities);
      } catch {
        entities = undefined;
      }
    }
    if (isJsonObject(entities as never)) usage.entities = entities as JsonObject;
  }
  return usage;
}
