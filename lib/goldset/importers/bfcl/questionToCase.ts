import {
  BFCL_COERCION_POLICY,
  isJsonObject,
  type BfclReference,
  type CoercionPolicy,
  type JsonValue,
  type ExpectedToolCall,
  type ToolCatalog,
} from '../../../domain/index.js';
import type { ImportNote, ImportRowError } from '../types.js';
import { groundTruthFloatPaths, type AnswerEntry } from './answerFile.js';
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
  /** the question line as text (for float literals of a `ground_truth` inside it) */
  lineText?: string;
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
      bfcl: bfclReferenceOf(category.name, line['function'], expected.groundTruth, expected.floatPaths),
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
  | { calls: ExpectedToolCall[]; raw: GroundTruthCall[]; notes: FieldProblem[]; groundTruth: unknown; floatPaths: string[] }
  | { problems: FieldProblem[] }
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
  if (category.kind === 'irrelevance') return { where: { row: ctx.row }, calls: [], raw: [], notes: [], groundTruth: [], floatPaths: [] };
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
  const floatPaths = entry ? entry.floatPaths : ctx.lineText !== undefined ? groundTruthFloatPaths(ctx.lineText) : [];
  return problems.length > 0 ? { where, problems } : { where, calls, raw: parsed.calls, notes, groundTruth, floatPaths };
}

/**
 * The question as BFCL's checker reads it (metadata.bfcl, for `compat: "bfcl"`): function docs as a list, the possible
 * answer as a list of one-call objects (an older file's one object with several keys becomes one entry per key, its
 * float pointers moved along).
 */
function bfclReferenceOf(category: string, functions: unknown, groundTruth: unknown, floatPaths: string[]): BfclReference {
  const docs = (Array.isArray(functions) ? functions : [functions]) as JsonValue[];
  if (Array.isArray(groundTruth)) {
    return {
      category,
      function: docs,
      ground_truth: groundTruth as JsonValue[],
      ...(floatPaths.length ? { float_literal_paths: floatPaths } : {}),
    };
  }
  const entries = isJsonObject(groundTruth) ? Object.entries(groundTruth) : [];
  const escaped = entries.map(([name]) => name.replace(/~/g, '~0').replace(/\//g, '~1'));
  const moved = floatPaths.map((p) => {
    const index = escaped.findIndex((name) => p === `/${name}` || p.startsWith(`/${name}/`));
    return `/${index}${p}`;
  });
  return {
    category,
    function: docs,
    ground_truth: entries.map(([name, params]) => ({ [name]: params as JsonValue })),
    ...(moved.length ? { float_literal_paths: moved } : {}),
  };
}
