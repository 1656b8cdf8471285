import type { TestCase, ToolCatalog } from '../../domain/index.js';

/**
 * One bad row. `row` is the 1-based line (JSONL, BFCL) or record number (JSON array element, CSV row counting the
 * header as row 1); row 0 means the input as a whole (not valid JSON, bad CSV header). `field` is a dotted path into
 * the row as written in the source (`expected_tool_calls.0.arguments`, a CSV column name, a BFCL path such as
 * `ground_truth.0.math.factorial.number`); '' means the whole row.
 */
export interface ImportRowError {
  row: number;
  id?: string;
  field: string;
  reason: string;
  /** Set only when the row is in a secondary file (BFCL's possible-answer file: 'answers'). */
  file?: 'answers';
}

/** Something the importer did that a person may want to know (an id was generated, a type was widened, ...). */
export interface ImportNote {
  row: number;
  id?: string;
  field: string;
  message: string;
  file?: 'answers';
}

export interface ImportResult {
  /** The imported cases, validated by TestCaseSchema (defaults applied). Empty when any row failed, unless partial. */
  cases: TestCase[];
  /** Tool catalogs the cases refer to (BFCL brings one per distinct set of function docs; native formats none). */
  catalogs: ToolCatalog[];
  errors: ImportRowError[];
  notes: ImportNote[];
  /** Rows read (non-blank lines, records), good or bad. */
  total_rows: number;
}

export interface ImportOptions {
  /** Default false: any bad row means no case is returned (the errors are all listed). True keeps the good rows. */
  partial?: boolean;
  /** metadata.source for cases that have none (default: 'native', 'csv' or 'bfcl:<category>'). */
  source?: string;
  /** Makes ids for cases without one (default crypto.randomUUID). */
  idFactory?: () => string;
}

/** Text as a whole, or as lines (an item holding several lines is split at '\n'). */
export type LinesInput = string | Iterable<string> | AsyncIterable<string>;
