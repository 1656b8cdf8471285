import type { TestCase } from '../../domain/index.js';

/** A case being built from one CSV record; validated as a whole by TestCaseSchema afterwards. */
export interface CsvDraft {
  [key: string]: unknown;
  metadata: Record<string, unknown>;
}

/**
 * One CSV column: how a present cell goes into the draft (returning the reason when the cell cannot be read) and how
 * a case gives its cell (undefined = absent, written as an unquoted empty cell). An unquoted empty cell is absent;
 * a quoted empty cell (`""`) is an empty string. Reader and writer live together so that export-then-import is exact.
 */
export interface CsvColumn {
  name: string;
  read(cell: string, draft: CsvDraft): string | undefined;
  write(testCase: TestCase): string | undefined;
}

type TopKey = 'id' | 'nl_query' | 'call_order' | 'expected_nl_response';
type MetaKey = 'category' | 'api_version' | 'author' | 'source' | 'created_at' | 'updated_at';
type JsonKey = 'expected_tool_calls' | 'alternative_tool_calls' | 'expected_raw_data' | 'execution' | 'turns';

const text = (name: TopKey): CsvColumn => ({
  name,
  read: (cell, draft) => void (draft[name] = cell),
  write: (tc) => tc[name],
});

const metaText = (name: MetaKey): CsvColumn => ({
  name,
  read: (cell, draft) => void (draft.metadata[name] = cell),
  write: (tc) => tc.metadata[name],
});

/** A JSON cell; `omitWhenEmpty` leaves the cell empty for an empty list (the schema's default). */
const json = (name: JsonKey, omitWhenEmpty = false): CsvColumn => ({
  name,
  read: (cell, draft) => (cell === '' ? undefined : readJson(cell, (value) => (draft[name] = value))),
  write: (tc) => {
    const value = tc[name];
    if (value === undefined || (omitWhenEmpty && Array.isArray(value) && value.length === 0)) return undefined;
    return JSON.stringify(value);
  },
});

/** A list cell: a JSON array, or items separated by any of `separators` (trimmed, empty items dropped). */
const list = (
  name: string,
  separators: RegExp,
  get: (tc: TestCase) => string[],
  set: (draft: CsvDraft, v: unknown) => void,
): CsvColumn => ({
  name,
  read: (cell, draft) => {
    if (cell.trimStart().startsWith('[')) return readJson(cell, (value) => set(draft, value));
    set(
      draft,
      cell
        .split(separators)
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    );
    return undefined;
  },
  write: (tc) => {
    const items = get(tc);
    if (items.length === 0) return undefined;
    const plain = items.every((item) => item !== '' && item === item.trim() && !separators.test(item) && !item.startsWith('['));
    return plain ? items.join('|') : JSON.stringify(items);
  },
});

/** Every column, in export order. The first 13 are the documented gold-set columns; the rest make export lossless. */
export const CSV_COLUMNS: readonly CsvColumn[] = [
  text('id'),
  text('nl_query'),
  json('expected_tool_calls'),
  json('alternative_tool_calls', true),
  json('expected_raw_data'),
  text('expected_nl_response'),
  list(
    'expected_facts',
    /\|/,
    (tc) => tc.expected_facts,
    (d, v) => (d['expected_facts'] = v),
  ),
  text('call_order'),
  metaText('category'),
  list(
    'tags',
    /[|;]/,
    (tc) => tc.metadata.tags,
    (d, v) => (d.metadata['tags'] = v),
  ),
  {
    name: 'complexity_level',
    read: (cell, draft) => {
      if (!/^\s*[+-]?\d+\s*$/.test(cell)) return `expected an integer from 1 to 5, got ${JSON.stringify(cell)}`;
      draft.metadata['complexity_level'] = Number(cell);
      return undefined;
    },
    write: (tc) => String(tc.metadata.complexity_level),
  },
  metaText('api_version'),
  metaText('author'),
  {
    name: 'tool_catalog',
    read: (cell, draft) => {
      if (cell.trimStart().startsWith('{')) return readJson(cell, (value) => (draft['tool_catalog'] = value));
      const at = cell.lastIndexOf('@');
      if (at <= 0 || at === cell.length - 1) return `expected "name@version" or a JSON object, got ${JSON.stringify(cell)}`;
      draft['tool_catalog'] = { name: cell.slice(0, at), version: cell.slice(at + 1) };
      return undefined;
    },
    write: ({ tool_catalog: ref }) => {
      if (ref === undefined) return undefined;
      const plain = !ref.version.includes('@') && !ref.name.trimStart().startsWith('{');
      return plain ? `${ref.name}@${ref.version}` : JSON.stringify(ref);
    },
  },
  {
    name: 'coercion',
    read: (cell, draft) =>
      cell.trimStart().startsWith('{') ? readJson(cell, (value) => (draft['coercion'] = value)) : void (draft['coercion'] = cell),
    write: ({ coercion }) => (coercion === undefined ? undefined : typeof coercion === 'string' ? coercion : JSON.stringify(coercion)),
  },
  json('execution'),
  metaText('source'),
  metaText('created_at'),
  metaText('updated_at'),
  {
    // a BFCL case's question as BFCL has it (metadata.bfcl, for compat "bfcl"), so that export stays lossless
    name: 'bfcl',
    read: (cell, draft) => readJson(cell, (value) => (draft.metadata['bfcl'] = value)),
    write: (tc) => (tc.metadata.bfcl === undefined ? undefined : JSON.stringify(tc.metadata.bfcl)),
  },
  // a conversation case: its turns as one JSON cell (`[{"user", "expected_tool_calls", "expect_clarification", ...}]`)
  json('turns'),
];

export const CSV_COLUMN_NAMES: readonly string[] = CSV_COLUMNS.map((c) => c.name);
/** Columns a header must have (a file with a `turns` column may leave them out: its cases are conversations). */
export const REQUIRED_CSV_COLUMNS: readonly string[] = ['nl_query', 'expected_tool_calls'];

const METADATA_COLUMNS = new Set<string>([
  'category',
  'tags',
  'complexity_level',
  'api_version',
  'author',
  'source',
  'created_at',
  'updated_at',
  'bfcl',
]);

/** Names a TestCase path the way the CSV does (`metadata.tags.0` -> `tags.0`). */
export function csvFieldName(path: string): string {
  if (!path.startsWith('metadata.')) return path;
  const rest = path.slice('metadata.'.length);
  return METADATA_COLUMNS.has(rest.split('.')[0] ?? '') ? rest : path;
}

function readJson(cell: string, set: (value: unknown) => void): string | undefined {
  try {
    set(JSON.parse(cell));
    return undefined;
  } catch (error) {
    return `not valid JSON: ${(error as Error).message}`;
  }
}
