import { ImportCollector } from '../collector.js';
import { numberedLines } from '../lines.js';
import type { ImportOptions, ImportResult, LinesInput } from '../types.js';
import { readAnswerFile, type AnswerEntry } from './answerFile.js';
import { BfclCatalogs } from './catalogs.js';
import { questionToCase } from './questionToCase.js';

export interface BfclInput {
  /** The question file: JSON Lines `{"id", "question", "function"}` (BFCL names it .json). */
  questions: LinesInput;
  /** The possible-answer file: JSON Lines `{"id", "ground_truth"}`. Not needed for irrelevance categories. */
  answers?: LinesInput;
  /** The BFCL category of every row (default: from each id, `simple_3` -> `simple`). */
  category?: string;
  /**
   * Multi-turn categories: the function docs of each API class (BFCL's multi_turn_func_doc files, JSON Lines of docs)
   * by class name (`GorillaFileSystem`, `TwitterAPI`, ...); a case gets the docs of its `involved_classes`. Not needed
   * when the question lines carry their docs in `function`.
   */
  functions?: Record<string, LinesInput>;
}

/**
 * Berkeley Function Calling Leaderboard datasets as cases judged the way BFCL's AST checker judges them (coercion
 * 'bfcl', answer lists as `$one_of`/`$optional`, no call expected for irrelevance) plus one ToolCatalog per distinct
 * set of function docs. Rows are question-file lines; problems in the answer file carry `file: 'answers'`.
 * README.md lists every difference from BFCL's checker.
 */
export async function importBfcl(input: BfclInput, options: ImportOptions = {}): Promise<ImportResult> {
  const collector = new ImportCollector(options, 'bfcl');
  let answers: Map<string, AnswerEntry> | undefined;
  if (input.answers !== undefined) {
    const read = await readAnswerFile(input.answers);
    answers = read.answers;
    collector.addErrors(read.errors);
  }
  const catalogs = new BfclCatalogs();
  const functions = new Map<string, unknown[]>();
  for (const [name, lines] of Object.entries(input.functions ?? {})) {
    const docs: unknown[] = [];
    for await (const { line: row, text } of numberedLines(lines)) {
      try {
        docs.push(JSON.parse(text));
      } catch (error) {
        collector.addErrors([{ row, field: `functions.${name}`, reason: `not valid JSON: ${(error as Error).message}` }]);
      }
    }
    functions.set(name, docs);
  }
  const questionIds = new Set<string>();
  for await (const { line: row, text } of numberedLines(input.questions)) {
    collector.countRow();
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch (error) {
      collector.addErrors([{ row, field: '', reason: `not valid JSON: ${(error as Error).message}` }]);
      continue;
    }
    const id = (line as { id?: unknown } | null)?.id;
    if (typeof id === 'string') questionIds.add(id);
    const outcome = questionToCase(line, {
      row,
      category: input.category,
      source: options.source,
      answers,
      catalogs,
      lineText: text,
      functions,
    });
    if ('errors' in outcome) {
      collector.addErrors(outcome.errors);
      continue;
    }
    if (collector.addCandidate(row, outcome.candidate, outcome.catalog)) outcome.notes.forEach((note) => collector.addNote(note));
  }
  for (const [id, entry] of answers ?? []) {
    if (!questionIds.has(id))
      collector.addNote({ row: entry.row, id, field: 'id', message: 'possible answer without a question in this import', file: 'answers' });
  }
  return collector.result();
}
