import { isJsonObject, type ExpectedToolCall, type ExpectedValue, type ToolCatalog } from '../../../domain/index.js';
import { parseToolCalls } from '../../../evaluation/index.js';
import type { ImportNote, ImportRowError } from '../types.js';
import type { AnswerEntry } from './answerFile.js';
import { BFCL_TOOL_SCHEMA_VERSION, type BfclCatalogs } from './catalogs.js';
import { functionDocsToTools } from './functionDocs.js';

/** What a multi-turn row needs of the import (questionToCase's context). */
interface MultiTurnContext {
  row: number;
  source?: string | undefined;
  answers?: Map<string, AnswerEntry> | undefined;
  catalogs: BfclCatalogs;
  functions?: ReadonlyMap<string, unknown[]> | undefined;
}

type MultiTurnOutcome = { candidate: Record<string, unknown>; catalog: ToolCatalog; notes: ImportNote[] } | { errors: ImportRowError[] };

/** BFCL's multi-turn categories this importer takes: the same conversation shape, a different twist each. */
export function isMultiTurnCategory(name: string): boolean {
  return /^multi_turn(_|$)/.test(name);
}

/**
 * What no multi-turn case imported here can check, said on every such case: BFCL runs each turn's calls on fresh
 * instances of the involved API classes built from `initial_config`, then compares every public attribute of every
 * instance with the gold run's (state check) and requires the gold calls' results among the model's (response check).
 */
export function stateCheckNote(classes: readonly string[]): string {
  const named = classes.length ? classes.join(', ') : 'the involved classes';
  return (
    `imported as a conversation whose turns expect BFCL's ground-truth calls (stage 2 compares the calls). Not imported: ` +
    `BFCL's state check (the end state of ${named} after each turn, from initial_config, against the gold's) and its ` +
    `response check (the gold calls' results among the model's): they need a stateful environment of these Python API ` +
    `classes, which the platform does not have; an agent that reaches the same state by another valid path fails here ` +
    `where BFCL passes it`
  );
}

/**
 * One BFCL multi-turn question line (`question`: a list of turns, each a list of messages; `involved_classes`,
 * `initial_config`; function docs in the line's `function` or in `ctx.functions` by class) with its ground truth (a
 * list per turn of Python call strings) as a conversation case: one turn per question turn, its expected calls the
 * parsed gold calls (arguments as literal values; an empty list = no call, as BFCL expects). Rows BFCL scores by
 * something a case cannot hold are refused with the reason: `missed_function` (tools that appear mid-conversation; a
 * case has one catalog).
 */
export function multiTurnToCase(line: Record<string, unknown>, id: string, category: string, ctx: MultiTurnContext): MultiTurnOutcome {
  const { row } = ctx;
  const errors: ImportRowError[] = [];
  const notes: ImportNote[] = [];
  const fail = (field: string, reason: string, file?: 'answers') => errors.push({ row, id, field, reason, ...(file ? { file } : {}) });
  if (
    line['missed_function'] !== undefined &&
    !(isJsonObject(line['missed_function']) && Object.keys(line['missed_function']).length === 0)
  ) {
    fail(
      'missed_function',
      'functions added in the middle of the conversation (BFCL multi_turn_miss_func) cannot be represented: a case offers one tool catalog at every turn',
    );
    return { errors };
  }
  const classes = Array.isArray(line['involved_classes']) ? line['involved_classes'].filter((c): c is string => typeof c === 'string') : [];
  const turns = userTurns(line['question'], fail);
  const docs = functionDocsOf(line, classes, ctx, fail);
  const entry = ctx.answers?.get(id);
  const groundTruth = entry?.groundTruth ?? line['ground_truth'];
  const gold: ExpectedToolCall[][] = [];
  if (groundTruth === undefined) {
    fail(
      'ground_truth',
      ctx.answers ? `no possible answer with id "${id}" in the answer file` : 'no possible answer: give the possible-answer file (answers)',
    );
  } else if (!Array.isArray(groundTruth) || !groundTruth.every(Array.isArray)) {
    fail('ground_truth', 'expected a list per turn of Python call strings', entry ? 'answers' : undefined);
  } else {
    (groundTruth as unknown[][]).forEach((calls, t) => {
      const turnCalls: ExpectedToolCall[] = [];
      calls.forEach((text, c) => {
        const parsed = typeof text === 'string' ? parseToolCalls(text) : undefined;
        if (!parsed?.ok || parsed.calls.length !== 1) {
          fail(
            `ground_truth.${t}.${c}`,
            `expected one Python call, got ${JSON.stringify(text)?.slice(0, 80)}`,
            entry ? 'answers' : undefined,
          );
          return;
        }
        const call = parsed.calls[0]!;
        turnCalls.push({ tool_name: call.tool_name, arguments: call.arguments as Record<string, ExpectedValue> });
      });
      gold.push(turnCalls);
    });
  }
  if (turns && gold.length > 0 && turns.length !== gold.length) {
    fail('ground_truth', `has ${gold.length} turns but the question has ${turns.length}`, entry ? 'answers' : undefined);
  }
  if (docs) {
    const names = new Set(docs.tools.map((t) => t.name));
    gold.forEach((calls, t) =>
      calls.forEach((call, c) => {
        if (!names.has(call.tool_name))
          fail(`ground_truth.${t}.${c}`, `function "${call.tool_name}" is not among the function docs of ${classes.join(', ')}`);
      }),
    );
  }
  if (errors.length > 0 || !turns || !docs) return { errors };
  const catalog = ctx.catalogs.catalogFor(docs.tools);
  if ('problems' in catalog) return { errors: catalog.problems.map((p) => ({ row, id, field: p.field, reason: p.reason })) };
  notes.push({ row, id, field: 'initial_config', message: stateCheckNote(classes) });
  const empty = gold.map((calls, t) => (calls.length === 0 ? t + 1 : 0)).filter((t) => t > 0);
  if (empty.length) {
    notes.push({
      row,
      id,
      field: 'ground_truth',
      message: `turn(s) ${empty.join(', ')} expect no call (BFCL's empty gold turn); a question asking for missing information passes them, as any answer without a call does`,
    });
  }
  const candidate = {
    id,
    turns: turns.map((user, t) => ({ user, expected_tool_calls: gold[t] ?? [] })),
    tool_catalog: { name: catalog.catalog.name, version: BFCL_TOOL_SCHEMA_VERSION },
    coercion: 'bfcl',
    metadata: {
      complexity_level: 5,
      tags: ['bfcl', category, 'conversation', ...classes.map((c) => `bfcl-class:${c}`)],
      category,
      source: ctx.source ?? `bfcl:${category}`,
    },
  };
  return { candidate, catalog: catalog.catalog, notes };
}

/** The user text of each turn (several messages of a turn joined by blank lines), or undefined after reporting why. */
function userTurns(question: unknown, fail: (field: string, reason: string) => void): string[] | undefined {
  if (!Array.isArray(question) || question.length === 0 || !question.every(Array.isArray)) {
    fail('question', 'expected a list of turns, each a list of messages');
    return undefined;
  }
  const turns: string[] = [];
  for (const [t, messages] of (question as unknown[][]).entries()) {
    const texts: string[] = [];
    for (const [m, message] of messages.entries()) {
      if (!isJsonObject(message) || typeof message['content'] !== 'string' || message['role'] !== 'user') {
        fail(`question.${t}.${m}`, 'expected a user message {"role": "user", "content": string}');
        return undefined;
      }
      texts.push(message['content']);
    }
    const text = texts.join('\n\n');
    if (text.trim() === '') {
      fail(`question.${t}`, 'has no user message');
      return undefined;
    }
    turns.push(text);
  }
  return turns;
}

/** The function docs offered at every turn: the line's own, else those of its involved classes from ctx.functions. */
function functionDocsOf(
  line: Record<string, unknown>,
  classes: readonly string[],
  ctx: MultiTurnContext,
  fail: (field: string, reason: string) => void,
): Extract<ReturnType<typeof functionDocsToTools>, { tools: unknown }> | undefined {
  let raw: unknown = line['function'];
  if (raw === undefined) {
    const missing = classes.filter((c) => !ctx.functions?.has(c));
    if (classes.length === 0 || missing.length > 0) {
      fail(
        'function',
        classes.length === 0
          ? 'no function docs: the line has no "function" and no "involved_classes"'
          : `no function docs for ${missing.join(', ')}: give BFCL's multi_turn_func_doc files (the functions option) or docs in the line's "function"`,
      );
      return undefined;
    }
    raw = classes.flatMap((c) => ctx.functions!.get(c)!);
  }
  const docs = functionDocsToTools(raw, 'python');
  if ('problems' in docs) {
    docs.problems.forEach((p) => fail(p.field, p.reason));
    return undefined;
  }
  return docs;
}
