import { BFCL_COERCION_POLICY, isJsonObject, type CoercionPolicy, type ExpectedToolCall, type ToolCatalog } from '../../../domain/index.js';
import type { ImportNote, ImportRowError } from '../types.js';
import type { AnswerEntry } from './answerFile.js';
import { BFCL_TOOL_SCHEMA_VERSION, type BfclCatalogs } from './catalogs.js';
import { categoryFromId, describeCategory, type BfclCategory } from './category.js';
import { functionDocsToTools, type BfclFunctionDoc, type FieldProblem } from './functionDocs.js';
import { groundTruthCalls, toExpectedCall, type GroundTruthCall } from './possibleAnswers.js';
import { nlQueryOf } from './question.js';
import { isMultiTurnCategory, multiTurnToCase } from './multiTurn.js';
import { widenForAnswers } from './widenForAnswers.js';

/**
 * Java/JavaScript values are source text (strings) that BFCL's checker converts before comparing with typed answers;
 * we compare them directly, so numeric and boolean strings must equal numbers and booleans (see README).
 */
export const BFCL_SOURCE_TEXT_POLICY: CoercionPolicy = { ...BFCL_COERCION_POLICY, numeric_string: true, boolean_string: true };

export interface QuestionContext {
  row: number;
  /** BFCL category for every row (else taken from each id). */
  category?: string;
  /** metadata.source (else `bfcl:<category>`). */
  source?: string;
  /** Possible answers by id (undefined when no answer file was given). */
  answers?: Map<string, AnswerEntry>;
  catalogs: BfclCatalogs;
  /** Multi-turn function docs by BFCL class name (its multi_turn_func_doc files), for lines without `function`. */
  functions?: ReadonlyMap<string, unknown[]>;
}

export type QuestionOutcome =
  { candidate: Record<string, unknown>; catalog: ToolCatalog; notes: ImportNote[] } | { errors: ImportRowError[] };

/** One question line (parsed JSON) as a candidate TestCase with its catalog, or the row's errors. */
export function questionToCase(line: unknown, ctx: QuestionContext): QuestionOutcome {
  const { row } = ctx;
  const fail = (field: string, reason: string, id?: string): QuestionOutcome => ({
    errors: [{ row, ...(id ? { id } : {}), field, reason }],
  });
  if (!isJsonObject(line)) return fail('', 'expected a JSON object (a BFCL question)');
  const id = line['id'];
  if (typeof id !== 'string' || id === '') return fail('id', 'expected a non-empty string');
  const categoryName = ctx.category ?? categoryFromId(id);
  if (categoryName === undefined)
    return fail('id', 'cannot tell the BFCL category from this id (expected <category>_<n>); pass the category option', id);
  if (isMultiTurnCategory(categoryName)) return multiTurnToCase(line, id, categoryName, ctx);
  const category = describeCategory(categoryName);
  if (typeof category === 'string') return fail('', category, id);

  const errors: ImportRowError[] = [];
  const notes: ImportNote[] = [];
  const place = (where: Where) => ({ row: where.row, id, ...(where.file ? { file: where.file } : {}) });
  const addErrors = (problems: FieldProblem[], where: Where = { row }) =>
    errors.push(...problems.map((p) => ({ ...place(where), field: p.field, reason: p.reason })));
  const addNotes = (problems: FieldProblem[], where: Where = { row }) =>
    notes.push(...problems.map((p) => ({ ...place(where), field: p.field, message: p.reason })));

  const query = nlQueryOf(line['question']);
  if ('reason' in query) addErrors([query]);
  else if (query.note !== undefined) addNotes([{ field: 'question', reason: query.note }]);

  const docs = functionDocsToTools(line['function'], category.language);
  if ('problems' in docs) addErrors(docs.problems);
  else addNotes(docs.notes);

  const expected = expectedCalls(line, id, category, 'docs' in docs ? docs.docs : undefined, ctx);
  if ('problems' in expected) addErrors(expected.problems, expected.where);
  else addNotes(expected.notes, expected.where);

  if (errors.length > 0 || 'reason' in query || 'problems' in docs || 'problems' in expected) return { errors };

  const widened = category.language === 'python' ? widenForAnswers(docs.tools, expected.raw) : { tools: docs.tools, notes: [] };
  addNotes(widened.notes);
  const catalog = ctx.catalogs.catalogFor(widened.tools);
  if ('problems' in catalog) {
    addErrors(catalog.problems);
    return { errors };
  }
  const candidate = {
    id,
    nl_query: query.nl_query,
    expected_tool_calls: expected.calls,
    call_order: 'any',
    tool_catalog: { name: catalog.catalog.name, version: BFCL_TOOL_SCHEMA_VERSION },
    coercion: category.language === 'python' ? 'bfcl' : BFCL_SOURCE_TEXT_POLICY,
    metadata: {
      complexity_level: category.complexity,
      tags: ['bfcl', category.name],
      category: category.name,
      source: ctx.source ?? `bfcl:${category.name}`,
    },
  };
  return { candidate, catalog: catalog.catalog, notes };
}

/** Where a problem is: the question row, or the answer row in the answer file. */
interface Where {
  row: number;
  file?: 'answers';
}

type ExpectedOutcome = { where: Where } & (
  { calls: ExpectedToolCall[]; raw: GroundTruthCall[]; notes: FieldProblem[] } | { problems: FieldProblem[] }
);

/**
 * The expected calls: none for irrelevance (the right answer is no call), else from the possible answer. `docs` is
 * undefined when the function docs are unreadable (already reported): calls are then not checked against them.
 */
function expectedCalls(
  line: Record<string, unknown>,
  id: string,
  category: BfclCategory,
  docs: BfclFunctionDoc[] | undefined,
  ctx: QuestionContext,
): ExpectedOutcome {
  if (category.kind === 'irrelevance') return { where: { row: ctx.row }, calls: [], raw: [], notes: [] };
  const entry = ctx.answers?.get(id);
  const where: Where = entry ? { file: 'answers', row: entry.row } : { row: ctx.row };
  const groundTruth = entry?.groundTruth ?? line['ground_truth'];
  if (groundTruth === undefined) {
    const reason = ctx.answers
      ? `no possible answer with id "${id}" in the answer file`
      : 'no possible answer: give the possible-answer file (answers)';
    return { where, problems: [{ field: 'ground_truth', reason }] };
  }
  const parsed = groundTruthCalls(groundTruth);
  if ('problems' in parsed) return { where, problems: parsed.problems };
  const calls: ExpectedToolCall[] = [];
  const problems: FieldProblem[] = [];
  const notes: FieldProblem[] = [];
  for (const raw of parsed.calls) {
    const doc = docs?.find((d) => d.name === raw.name);
    if (docs !== undefined && doc === undefined)
      problems.push({ field: raw.field, reason: `function "${raw.name}" is not among the question's function docs` });
    const converted = toExpectedCall(raw, doc);
    if ('problems' in converted) problems.push(...converted.problems);
    else {
      calls.push(converted.call);
      notes.push(...converted.notes);
    }
  }
  return problems.length > 0 ? { where, problems } : { where, calls, raw: parsed.calls, notes };
}
