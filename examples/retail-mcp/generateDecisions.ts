/**
 * Generates examples/retail-mcp/decisions.jsonl: what the scripted model server answers, turn by turn, for each
 * retail case, as "simulated model A" and "simulated model B". GENERATED DATA, no real model: the calls and answers
 * are taken from the bundled sample's generated outputs (examples/retail/outputs-model-a.jsonl, -b.jsonl) and split
 * into turns where a call needs a value an earlier call returns (that argument becomes a `$from` reference the
 * server fills in from the tool result the platform sends back). A deterministic ~15% (A) / ~22% (B) of cases are
 * flaky: their second trial makes a generated mistake (a changed id or a dropped call), so pass^3 < pass@1.
 * Run: `npx tsx examples/retail-mcp/generateDecisions.ts` (no network; the same bytes every time).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalCallKey, type JsonValue } from '../../lib/domain/index.js';
import type { Decision, ScriptedCall, Trial } from './decisions.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RETAIL = join(HERE, '..', 'retail');

type Fields = Record<string, unknown>;
const readJsonl = (file: string): Fields[] =>
  readFileSync(join(RETAIL, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Fields);

const gold = readJsonl('gold.jsonl');
const recorded = new Map(readJsonl('cassette.jsonl').map((e) => [e.key as string, e.data as JsonValue]));

const MODELS = [
  { model: 'simulated-model-a', label: 'simulated model A', outputs: 'outputs-model-a.jsonl', flakyPercent: 15 },
  { model: 'simulated-model-b', label: 'simulated model B', outputs: 'outputs-model-b.jsonl', flakyPercent: 22 },
] as const;

const NO_TOOLS_ANSWER = "I can't look that up: I have no access to the store's order, product or support systems from here.";

const lines: string[] = [];
for (const spec of MODELS) {
  const outputs = new Map(readJsonl(spec.outputs).map((o) => [o.test_case_id as string, o.output]));
  for (const tc of gold) {
    const id = tc.id as string;
    const { calls, answer } = readOutput(outputs.get(id));
    const base = toTrial(calls, answer);
    const flaky = bucket(`${spec.model}:${id}`) < spec.flakyPercent && calls.length > 0;
    const trials: Trial[] = flaky ? [base, mistake(base, id), base] : [base];
    const expectsNoCalls = (tc.expected_tool_calls as unknown[]).length === 0;
    const decision: Decision = {
      generated: true,
      model: spec.model,
      label: spec.label,
      test_case_id: id,
      nl_query: tc.nl_query as string,
      trials,
      // without tools the model can only answer from what it knows: right for the cases that need no call
      no_tools_answer: expectsNoCalls ? answer : NO_TOOLS_ANSWER,
    };
    lines.push(JSON.stringify(decision));
  }
}
writeFileSync(join(HERE, 'decisions.jsonl'), `${lines.join('\n')}\n`);
console.log(`decisions.jsonl: ${lines.length} generated decisions (${gold.length} cases x ${MODELS.length} simulated models)`);

/** The calls (arguments as objects, or the raw text when they are not JSON) and the final answer of a recorded output. */
function readOutput(output: unknown): { calls: Array<{ name: string; arguments: unknown }>; answer: string } {
  let value = output;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return { calls: [], answer: value as string };
    }
  }
  if (!isFields(value)) return { calls: [], answer: '' };
  if (Array.isArray(value.tool_calls) || typeof value.content === 'string' || value.content === null) {
    const calls = ((value.tool_calls ?? []) as Fields[]).map((call) => {
      const fn = (call.function ?? {}) as Fields;
      return { name: String(fn.name), arguments: parseMaybe(fn.arguments) };
    });
    return { calls, answer: typeof value.content === 'string' ? value.content : '' };
  }
  const content = Array.isArray(value.content) ? (value.content as Fields[]) : [];
  const lastUse = content.map((b) => b.type).lastIndexOf('tool_use');
  const texts = content
    .slice(lastUse + 1)
    .filter((b) => b.type === 'text')
    .map((b) => String(b.text));
  const calls = content.filter((b) => b.type === 'tool_use').map((b) => ({ name: String(b.name), arguments: b.input }));
  return { calls, answer: (texts.length ? texts : content.filter((b) => b.type === 'text').map((b) => String(b.text))).join('\n') };
}

/** Splits calls into turns: a call using a value an earlier call's recorded result holds waits for it. */
function toTrial(calls: Array<{ name: string; arguments: unknown }>, answer: string): Trial {
  const turnOf: number[] = [];
  const scripted: Array<ScriptedCall & { turn: number }> = [];
  calls.forEach((call, j) => {
    let turn = 0;
    let args = call.arguments;
    if (isFields(args)) {
      const replaced: Fields = {};
      for (const [key, value] of Object.entries(args)) {
        const source = typeof value === 'string' ? findEarlier(calls, j, value) : undefined;
        if (source) {
          replaced[key] = { $from: { call: source.call, path: source.path } };
          turn = Math.max(turn, turnOf[source.call]! + 1);
        } else replaced[key] = value;
      }
      args = replaced;
    }
    turnOf.push(turn);
    scripted.push({ name: call.name, arguments: args as JsonValue, turn });
  });
  const turns: ScriptedCall[][] = [];
  scripted.forEach((call, index) => {
    (turns[call.turn] ??= []).push({ name: call.name, arguments: call.arguments, index });
  });
  return { turns: turns.filter(Boolean), answer };
}

/** The first earlier call whose recorded result holds `value`, and where (dot path). */
function findEarlier(
  calls: Array<{ name: string; arguments: unknown }>,
  j: number,
  value: string,
): { call: number; path: string } | undefined {
  for (let i = 0; i < j; i++) {
    const args = calls[i]!.arguments;
    if (!isFields(args) || Object.values(args).includes(value)) continue; // the value was already in the question
    const data = recorded.get(canonicalCallKey({ tool_name: calls[i]!.name, arguments: args as Record<string, JsonValue> }));
    const path = data === undefined ? undefined : pathOf(data, value, '');
    if (path !== undefined) return { call: i, path };
  }
  return undefined;
}

function pathOf(data: unknown, value: string, at: string): string | undefined {
  if (data === value) return at;
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) {
      const found = pathOf(data[i], value, at ? `${at}.${i}` : String(i));
      if (found !== undefined) return found;
    }
  } else if (isFields(data)) {
    for (const [key, v] of Object.entries(data)) {
      const found = pathOf(v, value, at ? `${at}.${key}` : key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** A generated mistake for a flaky trial: drop the last call when there are several, else change the first id-like argument. */
function mistake(trial: Trial, id: string): Trial {
  const copy = JSON.parse(JSON.stringify(trial)) as Trial;
  const all = copy.turns.flat();
  if (all.length > 1) {
    const last = copy.turns[copy.turns.length - 1]!;
    last.pop();
    if (last.length === 0) copy.turns.pop();
    return { ...copy, answer: `${copy.answer.split('.')[0] ?? copy.answer}.` };
  }
  const first = all[0]!;
  if (isFields(first.arguments)) {
    for (const [key, value] of Object.entries(first.arguments)) {
      if (typeof value === 'string' && /\d$/.test(value)) {
        const digit = (Number(value.slice(-1)) + 1 + (bucket(id) % 8)) % 10;
        (first.arguments as Fields)[key] = `${value.slice(0, -1)}${digit}`;
        return copy;
      }
    }
  }
  return { ...copy, turns: [], answer: 'I am not sure how to help with that.' };
}

function bucket(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) % 100;
}

function parseMaybe(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
