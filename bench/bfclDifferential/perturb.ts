/**
 * Generated model outputs for the BFCL differential harness: for one BFCL question (its function docs and possible
 * answer), a correct output and perturbed ones covering the mistakes models make (wrong type, wrong value, missing or
 * extra parameter or call, reordering, normalisation variants, empty values), each as the JSON text a target would
 * return (`[{"name", "arguments"}]`, floats written as floats) or null for "no call could be decoded".
 * GENERATED DATA: perturbations of BFCL's own questions (github.com/ShishirPatil/gorilla, Apache-2.0).
 */
import type { BfclReference } from '../../lib/domain/index.js';
import { bfclLanguageOf, possibleCalls } from '../../lib/evaluation/index.js';
import { pyFloat, pyInt, pyStr, type PyValue } from '../../lib/evaluation/bfclCompat/pyValue.js';

export interface Variant {
  kind: string;
  output: string | null;
}

interface Call {
  name: string;
  args: Map<string, PyValue>;
}
interface ParamDoc {
  type?: string;
  items?: { type?: string };
  enum?: unknown[];
}
interface Doc {
  name: string;
  parameters?: { properties?: Record<string, ParamDoc>; required?: string[] };
}

const isEmptyMarker = (v: PyValue): boolean => v.t === 'str' && v.v === '';

/** JSON text of a value, floats with a `.0` where integral (Python's json.loads then reads a float). */
export function pyJson(value: PyValue): string {
  switch (value.t) {
    case 'int':
      return String(value.v);
    case 'float':
      return !Number.isFinite(value.v) ? '0.5' : Number.isInteger(value.v) ? value.v.toFixed(1) : String(value.v);
    case 'bool':
      return String(value.v);
    case 'none':
      return 'null';
    case 'str':
      return JSON.stringify(value.v);
    case 'list':
      return `[${value.v.map(pyJson).join(', ')}]`;
    case 'dict':
      return `{${[...value.v].map(([k, v]) => `${JSON.stringify(k)}: ${pyJson(v)}`).join(', ')}}`;
  }
}

function outputText(calls: Call[]): string {
  return `[${calls.map((c) => `{"name": ${JSON.stringify(c.name)}, "arguments": ${pyJson({ t: 'dict', v: c.args })}}`).join(', ')}]`;
}

/** A model value from BFCL's nested dict answer form (`{key: [values]}`): first (or last) acceptable value per key. */
function concreteDict(answer: PyValue, pick: 'first' | 'last'): PyValue {
  if (answer.t !== 'dict') return answer;
  const out = new Map<string, PyValue>();
  for (const [k, values] of answer.v) {
    const list = values.t === 'list' ? values.v.filter((v) => !isEmptyMarker(v)) : [values];
    const chosen = pick === 'first' ? list[0] : list[list.length - 1];
    if (chosen !== undefined) out.set(k, concreteDict(chosen, pick));
  }
  return { t: 'dict', v: out };
}

function concrete(answer: PyValue, doc: ParamDoc | undefined, pick: 'first' | 'last'): PyValue {
  const type = doc?.type;
  if (answer.t === 'dict' && (type === 'dict' || type === 'HashMap')) return concreteDict(answer, pick);
  if (answer.t === 'list' && doc?.items?.type === 'dict') return { t: 'list', v: answer.v.map((d) => concreteDict(d, pick)) };
  return answer;
}

/** Java / JavaScript source text for a typed value, as a model writes it. */
function source(value: PyValue, doc: ParamDoc | undefined, language: 'java' | 'javascript'): PyValue {
  const type = doc?.type ?? 'String';
  const nested = doc?.items?.type;
  const lit = (v: PyValue, t?: string): string => {
    if (v.t === 'str')
      return language === 'java' && t !== 'String' && t !== 'char' ? `"${v.v}"` : t === 'String' || t === 'char' ? `"${v.v}"` : `'${v.v}'`;
    if (v.t === 'int')
      return language === 'java' && t === 'long' ? `${v.v}L` : language === 'javascript' && t === 'Bigint' ? `${v.v}n` : String(v.v);
    if (v.t === 'float') return language === 'java' && t === 'float' ? `${pyJson(v)}f` : pyJson(v);
    if (v.t === 'bool') return String(v.v);
    if (v.t === 'list') return `[${v.v.map((x) => lit(x)).join(', ')}]`;
    if (v.t === 'dict') return `{${[...v.v].map(([k, x]) => `${k}: ${lit(x)}`).join(', ')}}`;
    return 'null';
  };
  if (value.t === 'str') return value;
  if (value.t === 'list') {
    if (language === 'javascript') return pyStr(`[${value.v.map((x) => lit(x, nested)).join(', ')}]`);
    if (type === 'ArrayList') return pyStr(`new ArrayList<>(Arrays.asList(${value.v.map((x) => lit(x, nested)).join(', ')}))`);
    const elem = nested === 'String' ? 'String' : nested === 'integer' ? 'int' : (nested ?? 'Object');
    return pyStr(`new ${elem}[]{${value.v.map((x) => lit(x, nested)).join(', ')}}`);
  }
  if (value.t === 'dict') {
    if (language === 'javascript') return pyStr(lit(value));
    return pyStr(`new HashMap<String, String>() {{ ${[...value.v].map(([k, x]) => `put("${k}", ${lit(x)});`).join(' ')} }}`);
  }
  return pyStr(lit(value, type));
}

/** Value perturbations: [kind, change] pairs; a change returns undefined where it does not apply. */
const VALUE_CHANGES: Array<[string, (v: PyValue) => PyValue | undefined]> = [
  [
    'wrong_value',
    (v) =>
      v.t === 'str'
        ? pyStr(v.v + ' extra')
        : v.t === 'int'
          ? pyInt(v.v + 1)
          : v.t === 'float'
            ? pyFloat(v.v + 1.5)
            : v.t === 'bool'
              ? { t: 'bool', v: !v.v }
              : v.t === 'list' && v.v.length > 0
                ? { t: 'list', v: v.v.slice(0, -1) }
                : undefined,
  ],
  ['type_int_as_float', (v) => (v.t === 'int' ? pyFloat(v.v) : undefined)],
  ['type_float_as_int', (v) => (v.t === 'float' ? pyInt(Math.trunc(v.v)) : undefined)],
  ['type_number_as_string', (v) => (v.t === 'int' || v.t === 'float' ? pyStr(String(v.v)) : undefined)],
  ['type_bool_as_string', (v) => (v.t === 'bool' ? pyStr(v.v ? 'True' : 'False') : undefined)],
  ['type_bool_as_int', (v) => (v.t === 'bool' ? pyInt(v.v ? 1 : 0) : undefined)],
  ['type_string_as_number', (v) => (v.t === 'str' ? pyInt(/^\d+$/.test(v.v) ? Number(v.v) : 1) : undefined)],
  ['type_list_as_string', (v) => (v.t === 'list' ? pyStr(v.v.map((x) => (x.t === 'str' ? x.v : pyJson(x))).join(', ')) : undefined)],
  ['type_scalar_as_list', (v) => (v.t === 'str' || v.t === 'int' || v.t === 'float' ? { t: 'list', v: [v] } : undefined)],
  ['norm_upper', (v) => (v.t === 'str' && v.v.toUpperCase() !== v.v ? pyStr(v.v.toUpperCase()) : undefined)],
  [
    'norm_punctuation',
    (v) => (v.t === 'str' && / /.test(v.v) ? pyStr(v.v.replace(/ /g, '_')) : v.t === 'str' ? pyStr(`${v.v}.`) : undefined),
  ],
  ['norm_spaces_removed', (v) => (v.t === 'str' && /[ ,]/.test(v.v) ? pyStr(v.v.replace(/[ ,]/g, '')) : undefined)],
  ['norm_quotes', (v) => (v.t === 'str' && /'/.test(v.v) ? pyStr(v.v.replace(/'/g, '"')) : v.t === 'str' ? pyStr(`'${v.v}'`) : undefined)],
  ['norm_other_punctuation', (v) => (v.t === 'str' ? pyStr(`${v.v}!`) : undefined)],
  [
    'norm_in_list',
    (v) =>
      v.t === 'list' && v.v.some((x) => x.t === 'str')
        ? { t: 'list', v: v.v.map((x) => (x.t === 'str' ? pyStr(` ${x.v.toUpperCase()}`) : x)) }
        : undefined,
  ],
  [
    'norm_in_dict',
    (v) =>
      v.t === 'dict' && [...v.v.values()].some((x) => x.t === 'str')
        ? { t: 'dict', v: new Map([...v.v].map(([k, x]) => [k, x.t === 'str' ? pyStr(x.v.toUpperCase() + '.') : x])) }
        : undefined,
  ],
  [
    'nested_list_norm',
    (v) =>
      v.t === 'dict' && [...v.v.values()].some((x) => x.t === 'list')
        ? {
            t: 'dict',
            v: new Map(
              [...v.v].map(([k, x]) => [
                k,
                x.t === 'list' ? { t: 'list', v: x.v.map((y) => (y.t === 'str' ? pyStr(y.v.toUpperCase()) : y)) } : x,
              ]),
            ),
          }
        : undefined,
  ],
  [
    'list_ints_as_floats',
    (v) =>
      v.t === 'list' && v.v.some((x) => x.t === 'int') ? { t: 'list', v: v.v.map((x) => (x.t === 'int' ? pyFloat(x.v) : x)) } : undefined,
  ],
  [
    'list_floats_as_ints',
    (v) =>
      v.t === 'list' && v.v.some((x) => x.t === 'float')
        ? { t: 'list', v: v.v.map((x) => (x.t === 'float' ? pyInt(Math.trunc(x.v)) : x)) }
        : undefined,
  ],
  ['list_reordered', (v) => (v.t === 'list' && v.v.length > 1 ? { t: 'list', v: [...v.v].reverse() } : undefined)],
  ['list_empty', (v) => (v.t === 'list' && v.v.length > 0 ? { t: 'list', v: [] } : undefined)],
  [
    'dict_int_as_float',
    (v) =>
      v.t === 'dict' && [...v.v.values()].some((x) => x.t === 'int')
        ? { t: 'dict', v: new Map([...v.v].map(([k, x]) => [k, x.t === 'int' ? pyFloat(x.v) : x])) }
        : undefined,
  ],
  ['dict_extra_key', (v) => (v.t === 'dict' ? { t: 'dict', v: new Map([...v.v, ['unexpected_key', pyStr('x')]]) } : undefined)],
  ['dict_missing_key', (v) => (v.t === 'dict' && v.v.size > 0 ? { t: 'dict', v: new Map([...v.v].slice(1)) } : undefined)],
  [
    'list_dicts_int_as_float',
    (v) =>
      v.t === 'list' && v.v.some((d) => d.t === 'dict')
        ? {
            t: 'list',
            v: v.v.map((d) =>
              d.t === 'dict'
                ? {
                    t: 'dict',
                    v: new Map([...d.v].map(([k, x]) => [k, x.t === 'int' ? pyFloat(x.v) : x.t === 'str' ? pyStr(x.v.toUpperCase()) : x])),
                  }
                : d,
            ),
          }
        : undefined,
  ],
  ['empty_string', (v) => (v.t === 'str' && v.v !== '' ? pyStr('') : undefined)],
];

/** Source-text perturbations for Java/JavaScript values (the model's text, before BFCL converts it). */
const SOURCE_CHANGES: Array<[string, (text: string) => PyValue | undefined]> = [
  ['src_int_as_decimal', (s) => (/^-?\d+$/.test(s) ? pyStr(`${s}.0`) : undefined)],
  ['src_drop_suffix', (s) => (/^-?\d+(\.\d+)?[lLfFn]$/.test(s) ? pyStr(s.slice(0, -1)) : undefined)],
  ['src_add_float_suffix', (s) => (/^-?\d+\.\d+$/.test(s) ? pyStr(`${s}f`) : undefined)],
  ['src_quoted', (s) => (!/^["']/.test(s) ? pyStr(`"${s}"`) : undefined)],
  ['src_single_quoted', (s) => (!/^["']/.test(s) ? pyStr(`'${s}'`) : undefined)],
  ['src_unquoted', (s) => (/^".*"$/.test(s) ? pyStr(s.slice(1, -1)) : undefined)],
  ['src_capital_bool', (s) => (s === 'true' || s === 'false' ? pyStr(s === 'true' ? 'True' : 'False') : undefined)],
  ['src_spacing', (s) => (/[{[(]/.test(s) ? pyStr(s.replace(/,\s*/g, ',').replace(/\{/g, ' { ').replace(/\}/g, ' } ')) : undefined)],
  [
    'src_arraylist_add',
    (s) => {
      const m = /Arrays\.asList\((.*)\)\)$/.exec(s);
      return m
        ? pyStr(
            `new ArrayList<>() {{ ${m[1]!
              .split(',')
              .map((e) => `add(${e.trim()});`)
              .join(' ')} }}`,
          )
        : undefined;
    },
  ],
  ['src_new_array', (s) => (/^\[.*\]$/.test(s) ? pyStr(`new Array(${s.slice(1, -1)})`) : undefined)],
  ['src_json_number', (s) => (/^-?\d+$/.test(s) ? pyInt(Number(s)) : undefined)],
  ['src_upper', (s) => (/[a-z]/.test(s) ? pyStr(s.toUpperCase()) : undefined)],
];

/** Every generated output for one question (irrelevance: no call, and calls that should not be made). */
export function variantsFor(reference: BfclReference): Variant[] {
  const docs = reference.function as unknown as Doc[];
  const language = bfclLanguageOf(reference.category);
  const out: Variant[] = [];
  const push = (kind: string, calls: Call[] | null) => out.push({ kind, output: calls === null ? null : outputText(calls) });
  if (reference.category.includes('irrelevance')) {
    push('no_call', []);
    push('no_call_text', null);
    const doc = docs[0];
    if (doc) push('irrelevant_call', [{ name: doc.name, args: new Map((doc.parameters?.required ?? []).map((p) => [p, pyStr('x')])) }]);
    return out;
  }
  const expected = possibleCalls(reference);
  const docOf = (name: string) => docs.find((d) => d.name === name);
  const build = (pick: 'first' | 'last', omitOptional: boolean): Call[] =>
    expected.map((e) => {
      const doc = docOf(e.name);
      const args = new Map<string, PyValue>();
      for (const [param, answers] of e.params) {
        const values = answers.filter((a) => !isEmptyMarker(a));
        if (values.length === 0 || (omitOptional && values.length < answers.length)) continue;
        const pd = doc?.parameters?.properties?.[param];
        let v = concrete(pick === 'first' ? values[0]! : values[values.length - 1]!, pd, pick);
        if (language !== 'python') v = source(v, pd, language);
        args.set(param, v);
      }
      return { name: e.name, args };
    });
  const base = build('first', false);
  push('correct_first', base);
  push('correct_last', build('last', false));
  push('correct_required_only', build('first', true));
  push('decode_failure', null);
  push('no_call', []);
  const clone = (calls: Call[]): Call[] => calls.map((c) => ({ name: c.name, args: new Map(c.args) }));
  // call-level mistakes
  push(
    'wrong_function_name',
    clone(base).map((c, i) => (i === 0 ? { ...c, name: `${c.name}_v2` } : c)),
  );
  push('extra_call', [...clone(base), clone(base)[base.length - 1]!]);
  if (base.length > 1) push('missing_call', clone(base).slice(0, -1));
  if (base.length > 1) push('calls_reordered', clone(base).reverse());
  // parameter-level mistakes, on the first call with arguments (and on each call of a parallel case for values)
  base.forEach((call, ci) => {
    if (ci > 1) return;
    const doc = docOf(call.name);
    const properties = doc?.parameters?.properties ?? {};
    const answers = expected[ci]!.params;
    const withArg = (kind: string, param: string, value: PyValue | undefined) => {
      const calls = clone(base);
      if (value === undefined) calls[ci]!.args.delete(param);
      else calls[ci]!.args.set(param, value);
      push(kind, calls);
    };
    for (const [param, value] of call.args) {
      withArg('missing_param', param, undefined);
      if (language === 'python') {
        for (const [kind, change] of VALUE_CHANGES) {
          const changed = change(value);
          if (changed !== undefined) withArg(kind, param, changed);
        }
      } else if (value.t === 'str') {
        for (const [kind, change] of SOURCE_CHANGES) {
          const changed = change(value.v);
          if (changed !== undefined) withArg(kind, param, changed);
        }
        const typed = answers.get(param)?.find((a) => !isEmptyMarker(a));
        if (typed && (typed.t === 'int' || typed.t === 'float' || typed.t === 'str')) {
          const wrong = typed.t === 'str' ? pyStr(typed.v + 'X') : typed.t === 'int' ? pyInt(typed.v + 1) : pyFloat(typed.v + 1.5);
          withArg('wrong_value', param, source(wrong, properties[param], language));
        }
      }
      const enumValues = properties[param]?.enum;
      if (Array.isArray(enumValues) && value.t === 'str')
        withArg('enum_case_variant', param, pyStr(value.v.toUpperCase().replace(/_/g, ' ')));
    }
    for (const [param, accepted] of answers) {
      if (!accepted.some(isEmptyMarker)) continue;
      withArg('optional_empty_string', param, pyStr(''));
      withArg('optional_empty_list', param, { t: 'list', v: [] });
      withArg('optional_omitted', param, undefined);
      if (language !== 'python') withArg('optional_empty_quotes', param, pyStr('""'));
    }
    const undeclaredInAnswer = Object.keys(properties).find((p) => !answers.has(p));
    if (undeclaredInAnswer) withArg('extra_param_declared', undeclaredInAnswer, language === 'python' ? pyStr('x') : pyStr('"x"'));
    withArg('extra_param_undeclared', 'unexpected_argument', pyStr('x'));
  });
  // a parallel case where greedy pairing can go wrong: the same call twice with the first call's values
  if (base.length > 1 && base.every((c) => c.name === base[0]!.name))
    push('parallel_duplicate_first', [clone(base)[0]!, ...clone(base).slice(0, -1)]);
  return out;
}
