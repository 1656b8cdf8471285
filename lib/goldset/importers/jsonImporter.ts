import { isJsonObject } from '../../domain/index.js';
import { ImportCollector } from './collector.js';
import { numberedLines } from './lines.js';
import type { ImportOptions, ImportResult, LinesInput } from './types.js';

/**
 * A JSON document of cases: an array, or an object `{ "test_cases": [...] }` or `{ "cases": [...] }`.
 * Rows are the 1-based array positions; a document that is not valid JSON or not one of these shapes is one error
 * on row 0.
 */
export async function importJson(text: string, options: ImportOptions = {}): Promise<ImportResult> {
  const collector = new ImportCollector(options, 'native');
  let doc: unknown;
  try {
    doc = JSON.parse(stripBom(text));
  } catch (error) {
    collector.addErrors([{ row: 0, field: '', reason: `not valid JSON: ${(error as Error).message}` }]);
    return collector.result();
  }
  const list = casesOf(doc);
  if (typeof list === 'string') {
    collector.addErrors([{ row: 0, field: '', reason: list }]);
    return collector.result();
  }
  list.forEach((candidate, index) => {
    collector.countRow();
    collector.addCandidate(index + 1, candidate);
  });
  return collector.result();
}

/**
 * JSON Lines: one case per line; blank lines are skipped; rows are physical line numbers. A line that is not valid
 * JSON is an error naming that line. Streams: give it lines (e.g. from `linesOf(stream)`) to avoid holding the text.
 */
export async function importJsonl(input: LinesInput, options: ImportOptions = {}): Promise<ImportResult> {
  const collector = new ImportCollector(options, 'native');
  for await (const { line, text } of numberedLines(input)) {
    collector.countRow();
    let candidate: unknown;
    try {
      candidate = JSON.parse(text);
    } catch (error) {
      collector.addErrors([{ row: line, field: '', reason: `not valid JSON: ${(error as Error).message}` }]);
      continue;
    }
    collector.addCandidate(line, candidate);
  }
  return collector.result();
}

/** The case list of a JSON document, or the reason it has none. */
function casesOf(doc: unknown): unknown[] | string {
  if (Array.isArray(doc)) return doc;
  if (isJsonObject(doc)) {
    const keys = Object.keys(doc);
    const listKey = keys.find((k) => k === 'test_cases' || k === 'cases');
    const others = keys.filter((k) => k !== listKey);
    if (listKey === undefined) return 'expected a JSON array of cases, or an object with "test_cases" or "cases"';
    if (others.length > 0) return `unexpected top-level field(s) ${others.map((k) => `"${k}"`).join(', ')}: expected only "${listKey}"`;
    const list = doc[listKey];
    if (!Array.isArray(list)) return `"${listKey}" must be an array of cases`;
    return list;
  }
  return 'expected a JSON array of cases, or an object with "test_cases" or "cases"';
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
