import { z } from 'zod';
import { canonicalCallKey, type JsonValue, type ToolCall } from '../domain/index.js';

/** One recorded response. `key` is the canonical call key (tool name + key-sorted arguments). */
export interface CassetteEntry {
  key: string;
  tool_name: string;
  arguments: Record<string, JsonValue>;
  status: number;
  data: JsonValue;
  recorded_at: string;
}

/**
 * The shape of a cassette line. `arguments` and `data` come from JSON.parse, so they are JSON by construction:
 * only their outer shape is checked (a deep z.json() walk would cost more than the parse on large cassettes).
 */
export const CassetteEntrySchema = z
  .object({
    key: z.string().min(1),
    tool_name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()),
    status: z.number().int().min(100).max(599),
    data: z.unknown().refine((value) => value !== undefined, { message: 'is required' }),
    recorded_at: z.iso.datetime({ offset: true }),
  })
  .strict();

/** Where recorded responses live. Lookups are synchronous: every implementation holds its entries in memory. */
export interface CassetteStore {
  /** the entry recorded for a canonical call key, or undefined */
  get(key: string): CassetteEntry | undefined;
  /** stores an entry; a later entry for the same key replaces the earlier one */
  append(entry: CassetteEntry): void;
  readonly size: number;
}

/** The entry recording `data` as the response to `call`. */
export function cassetteEntryFor(call: ToolCall, status: number, data: JsonValue, recordedAt: Date): CassetteEntry {
  return {
    key: canonicalCallKey(call),
    tool_name: call.tool_name,
    arguments: call.arguments,
    status,
    data,
    recorded_at: recordedAt.toISOString(),
  };
}

/** A cassette in memory: for tests, and for cassettes built by code. */
export class InMemoryCassette implements CassetteStore {
  private readonly entries = new Map<string, CassetteEntry>();

  constructor(entries: Iterable<CassetteEntry> = []) {
    for (const entry of entries) this.append(entry);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): CassetteEntry | undefined {
    return this.entries.get(key);
  }

  append(entry: CassetteEntry): void {
    this.entries.set(entry.key, entry);
  }
}
