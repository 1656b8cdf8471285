import { readFile } from 'node:fs/promises';
import type { TestCase, ToolCatalog } from '../../domain/index.js';
import { importBfcl, importCsv, importJson, importJsonl, type ImportResult, type ImportRowError } from '../importers/index.js';

export type GoldFormat = 'native' | 'csv' | 'bfcl';

export interface GoldSet {
  cases: Map<string, TestCase>;
  /** catalogs keyed `${name}@${tool_schema_version}` (BFCL brings one per distinct function-doc set) */
  catalogs: Map<string, ToolCatalog>;
}

/** A gold set that cannot be used as a whole: lists every bad row (row, field, reason). */
export class GoldSetError extends Error {
  constructor(
    readonly file: string,
    readonly errors: ImportRowError[],
  ) {
    const shown = errors.slice(0, 10).map((e) => `  row ${e.row}${e.id ? ` (${e.id})` : ''}: ${e.field}: ${e.reason}`);
    const more = errors.length > 10 ? [`  ... and ${errors.length - 10} more`] : [];
    super([`${file}: ${errors.length} bad row(s), nothing imported`, ...shown, ...more].join('\n'));
    this.name = 'GoldSetError';
  }
}

/** Loads a gold set file (native JSON/JSONL, CSV, or BFCL questions plus possible answers), all-or-nothing. */
export async function loadGoldSet(options: { gold: string; answers?: string; format?: GoldFormat }): Promise<GoldSet> {
  const text = await readFile(options.gold, 'utf8');
  const format = options.format ?? 'native';
  let result: ImportResult;
  switch (format) {
    case 'native':
      result = looksLikeJsonDocument(options.gold, text)
        ? await importJson(text, { source: 'native' })
        : await importJsonl(text, { source: 'native' });
      break;
    case 'csv':
      result = await importCsv(text, { source: 'csv' });
      break;
    case 'bfcl':
      result = await importBfcl({
        questions: text,
        ...(options.answers ? { answers: await readFile(options.answers, 'utf8') } : {}),
      });
      break;
  }
  if (result.errors.length > 0) throw new GoldSetError(options.gold, result.errors);
  return {
    cases: new Map(result.cases.map((c) => [c.id, c])),
    catalogs: new Map(result.catalogs.map((c) => [catalogKey(c), c])),
  };
}

export function catalogKey(ref: { name: string; tool_schema_version?: string; version?: string }): string {
  return `${ref.name}@${ref.tool_schema_version ?? ref.version ?? ''}`;
}

function looksLikeJsonDocument(path: string, text: string): boolean {
  if (path.endsWith('.jsonl') || path.endsWith('.ndjson')) return false;
  if (path.endsWith('.json')) return true;
  const first = text.trimStart()[0];
  // a JSON array, or a single object spanning several lines, is a document; one object per line is JSONL
  return first === '[' || (first === '{' && !text.trimStart().split('\n', 1)[0]!.trimEnd().endsWith('}'));
}
