import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalCallKey, ToolCatalogSchema, type JsonObject, type JsonValue, type ToolCatalog } from '../../lib/domain/index.js';
import { simulateApi } from '../retail/generator/api/simulateApi.js';
import { Prng } from '../retail/generator/prng.js';
import { buildWorld } from '../retail/generator/world/buildWorld.js';
import type { World } from '../retail/generator/world/types.js';

const RETAIL = join(dirname(fileURLToPath(import.meta.url)), '..', 'retail');
/** the seed examples/retail/generate.ts builds its world with (sample.json `seed`) */
const SEED = 20261014;

export interface RetailAnswer {
  status: number;
  data: JsonValue;
  /** `recorded`: the bundled cassette's response; `simulated`: the simulated store answering a call nobody recorded */
  source: 'recorded' | 'simulated';
}

/**
 * The retail back-office API over the bundled data: a call that was recorded (examples/retail/cassette.jsonl) gets
 * the recorded response, so tool results match the gold set's expected data; any other call is answered by the same
 * simulated store the sample was generated from (404 for unknown ids, 400 for arguments the API rejects, ...).
 */
export class RetailApi {
  readonly catalog: ToolCatalog;
  private readonly recorded = new Map<string, { status: number; data: JsonValue }>();
  private world: World | undefined;

  constructor(retailDir = RETAIL) {
    this.catalog = ToolCatalogSchema.parse(JSON.parse(readFileSync(join(retailDir, 'catalog.json'), 'utf8')));
    for (const line of readFileSync(join(retailDir, 'cassette.jsonl'), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const entry = JSON.parse(line) as { key: string; status: number; data: JsonValue };
      this.recorded.set(entry.key, { status: entry.status, data: entry.data });
    }
  }

  call(toolName: string, args: JsonObject): RetailAnswer {
    for (const candidate of [args, this.withoutDefaults(toolName, args)]) {
      const hit = this.recorded.get(canonicalCallKey({ tool_name: toolName, arguments: candidate }));
      if (hit) return { ...hit, source: 'recorded' };
    }
    this.world ??= buildWorld(new Prng(SEED).fork('world'));
    const answer = simulateApi(this.world, { tool_name: toolName, arguments: args });
    return { status: answer.status, data: answer.data, source: 'simulated' };
  }

  /** The arguments without those equal to their schema default (the server's validation fills defaults in). */
  private withoutDefaults(toolName: string, args: JsonObject): JsonObject {
    const tool = this.catalog.tools.find((t) => t.name === toolName);
    const properties = (tool?.parameters.properties ?? {}) as Record<string, { default?: unknown }>;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(args)) {
      const fallback = properties[key]?.default;
      if (fallback !== undefined && JSON.stringify(fallback) === JSON.stringify(value)) continue;
      out[key] = value;
    }
    return out;
  }
}
