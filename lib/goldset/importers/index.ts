export type { ImportNote, ImportOptions, ImportResult, ImportRowError, LinesInput } from './types.js';
export { importJson, importJsonl } from './jsonImporter.js';
export { importCsv, type CsvInput } from './csvImporter.js';
export { importBfcl, type BfclInput } from './bfcl/bfclImporter.js';
export { exportJsonl, exportCsv, type CasesInput } from './exporters.js';
export { linesOf } from './lines.js';
export { CSV_COLUMN_NAMES, REQUIRED_CSV_COLUMNS } from './csvColumns.js';
export { BFCL_SOURCE_TEXT_POLICY } from './bfcl/questionToCase.js';
