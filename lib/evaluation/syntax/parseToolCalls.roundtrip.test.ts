import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../domain/json.js';
import { escapePointerSegment } from '../../domain/index.js';
import type { OutputFormat } from './outcome.js';
import { parseToolCalls } from './parseToolCalls.js';

type Args = Record<string, JsonValue>;
interface Call {
  name: string;
  args: Args;
}

// -- generators ---------------------------------------------------------------------------------------------
const identifier = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/);
const toolName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}(\.[A-Za-z_][A-Za-z0-9_]{0,10})?$/);
const number = fc.oneof(
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d)),
);
const { value } = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'binary' }),
    number,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 4, noNullPrototype: true }),
  ),
}));
/** Top-level argument names are identifiers, so the Python form can write them as keywords. */
const args: fc.Arbitrary<Args> = fc.dictionary(identifier, value, { maxKeys: 8, noNullPrototype: true });
const calls: fc.Arbitrary<Call[]> = fc.array(fc.record({ name: toolName, args }), { minLength: 1, maxLength: 4 });

// -- serialisers: even safe integers are written in float form (`4.0`), to check float_literal_paths ----------
const floatForm = (v: number): boolean => Number.isSafeInteger(v) && v % 2 === 0;

function toJson(v: JsonValue): string {
  if (typeof v === 'number') return floatForm(v) ? `${v}.0` : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(toJson).join(', ')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .map((k) => `${JSON.stringify(k)}: ${toJson(v[k] as JsonValue)}`)
      .join(', ')}}`;
  return JSON.stringify(v);
}

function toPython(v: JsonValue): string {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number' || typeof v === 'string') return toJson(v);
  if (Array.isArray(v)) return `[${v.map(toPython).join(', ')}]`;
  return `{${Object.keys(v)
    .map((k) => `${JSON.stringify(k)}: ${toPython(v[k] as JsonValue)}`)
    .join(', ')}}`;
}

const pythonCall = (c: Call): string =>
  `${c.name}(${Object.keys(c.args)
    .map((k) => `${k}=${toPython(c.args[k] as JsonValue)}`)
    .join(', ')})`;

/** Integral numbers the text shows in float form: ours (`4.0`), and JSON.stringify's exponents (`1e+21`). */
const writtenAsFloat = (v: number): boolean => floatForm(v) || (Number.isInteger(v) && /[.eE]/.test(JSON.stringify(v)));

/** The pointers a serialiser wrote in float form, in text order. */
function floatPaths(v: JsonValue, pointer = '', out: string[] = []): string[] {
  if (typeof v === 'number' && writtenAsFloat(v)) out.push(pointer);
  else if (Array.isArray(v)) v.forEach((item, i) => floatPaths(item, `${pointer}/${i}`, out));
  else if (v !== null && typeof v === 'object')
    for (const k of Object.keys(v)) floatPaths(v[k] as JsonValue, `${pointer}/${escapePointerSegment(k)}`, out);
  return out;
}

interface Form {
  format: OutputFormat;
  serialise: (calls: Call[]) => unknown;
  /** whether the form keeps float literals (text forms do; objects have been through JSON.parse already) */
  keepsFloats: boolean;
}

const FORMS: Record<string, Form> = {
  'OpenAI chat message (object)': {
    format: 'openai_chat',
    serialise: (cs) => ({
      role: 'assistant',
      content: null,
      tool_calls: cs.map((c, i) => ({ id: `call_${i}`, type: 'function', function: { name: c.name, arguments: toJson(c.args) } })),
    }),
    keepsFloats: true,
  },
  'OpenAI chat completion (text)': {
    format: 'openai_chat',
    serialise: (cs) =>
      JSON.stringify({
        choices: [
          {
            message: {
              role: 'assistant',
              tool_calls: cs.map((c) => ({ type: 'function', function: { name: c.name, arguments: toJson(c.args) } })),
            },
          },
        ],
      }),
    keepsFloats: true,
  },
  'Responses output (object)': {
    format: 'openai_responses',
    serialise: (cs) => ({
      output: cs.map((c, i) => ({ type: 'function_call', call_id: `call_${i}`, name: c.name, arguments: toJson(c.args) })),
    }),
    keepsFloats: true,
  },
  'Anthropic message (object)': {
    format: 'anthropic',
    serialise: (cs) => ({
      type: 'message',
      role: 'assistant',
      content: cs.map((c, i) => ({ type: 'tool_use', id: `toolu_${i}`, name: c.name, input: structuredClone(c.args) })),
    }),
    keepsFloats: false,
  },
  'Anthropic content (text)': {
    format: 'anthropic',
    serialise: (cs) =>
      `[${cs.map((c, i) => `{"type": "tool_use", "id": "toolu_${i}", "name": ${JSON.stringify(c.name)}, "input": ${toJson(c.args)}}`).join(', ')}]`,
    keepsFloats: true,
  },
  'JSON list, object arguments (text)': {
    format: 'json_array',
    serialise: (cs) => `[${cs.map((c) => `{"name": ${JSON.stringify(c.name)}, "arguments": ${toJson(c.args)}}`).join(', ')}]`,
    keepsFloats: true,
  },
  'JSON list, argument text (object)': {
    format: 'json_array',
    serialise: (cs) => cs.map((c) => ({ tool_name: c.name, parameters: toJson(c.args) })),
    keepsFloats: true,
  },
  'Python call list (text)': { format: 'python_calls', serialise: (cs) => `[${cs.map(pythonCall).join(', ')}]`, keepsFloats: true },
  'Python calls on lines (text)': { format: 'python_calls', serialise: (cs) => cs.map(pythonCall).join('\n'), keepsFloats: true },
};

describe('round trip: serialise random calls into each format, parse them back', () => {
  it.each(Object.entries(FORMS))('%s', (_name, form) => {
    fc.assert(
      fc.property(calls, (cs) => {
        const outcome = parseToolCalls(form.serialise(cs));
        expect(outcome.ok).toBe(true);
        expect(outcome.format).toBe(form.format);
        expect(outcome.calls.map((c) => ({ name: c.tool_name, args: c.arguments }))).toEqual(cs);
        const expectedFloats = cs.map((c) => {
          const paths = form.keepsFloats ? floatPaths(c.args) : [];
          return paths.length > 0 ? paths : undefined;
        });
        expect(outcome.calls.map((c) => c.float_literal_paths)).toEqual(expectedFloats);
      }),
      { numRuns: 150 },
    );
  });
});
