import { BfclConversionError, JAVA_TYPES, javaTypeConverter } from './javaValues.js';
import { JS_TYPES, jsTypeConverter } from './jsValues.js';
import { pyEquals, pyFloat, pyIn, pyRepr, pyStr, pyTypeName, type PyValue } from './pyValue.js';
import { standardizeString } from './standardize.js';

/**
 * A TypeScript reading of BFCL's AST checker (`bfcl_eval/eval_checker/ast_eval/ast_checker.py`, gorilla repo,
 * Apache-2.0): the same steps in the same order, on Python-like values (pyValue.ts), so that its verdicts are
 * reproduced exactly. Comments name the BFCL function each piece mirrors. Not vendored: written from reading it.
 */

export type BfclLanguage = 'python' | 'java' | 'javascript';
type Expected = PyValue['t'] | 'set';

/** One decoded model call, `{name: {param: value}}` as BFCL's decoder returns it. */
export interface DecodedCall {
  name: string;
  args: Map<string, PyValue>;
}

/** A function doc as BFCL's question file has it (only the fields the checker reads). */
export interface FunctionDoc {
  name: string;
  parameters: { properties: Record<string, { type: string; items?: { type: string } }>; required: string[] };
}

/** One expected call: `{name: {param: [acceptable values]}}`. */
export interface PossibleCall {
  name: string;
  params: Map<string, PyValue[]>;
}

export interface CheckResult {
  valid: boolean;
  /** BFCL's `error_type` (e.g. `value_error:string`); `valid` when it passed */
  error_type: string;
  error: string;
}

const OK: CheckResult = { valid: true, error_type: 'valid', error: '' };
const fail = (error_type: string, error: string): CheckResult => ({ valid: false, error_type, error });

/** BFCL's `PYTHON_TYPE_MAPPING`. */
const PYTHON_TYPES: Readonly<Record<string, Expected>> = {
  string: 'str',
  integer: 'int',
  float: 'float',
  boolean: 'bool',
  array: 'list',
  tuple: 'list',
  dict: 'dict',
  any: 'str',
};
const PYTHON_NESTED = new Set(['array', 'tuple']);
const NESTED_CONVERSION = new Set(['Array', 'ArrayList', 'array']);

/** Where BFCL's own code would raise (a missing key, an unsupported type): its run stops; we fail the case with this. */
export class BfclCheckerError extends Error {}

function lookup<T>(table: Readonly<Record<string, T>>, key: string | undefined, what: string): T {
  if (key === undefined || !Object.hasOwn(table, key)) throw new BfclCheckerError(`KeyError: ${what} ${JSON.stringify(key)}`);
  return table[key]!;
}

/** `get_possible_answer_type`: the type of the first acceptable value that is not `""`. */
function possibleAnswerType(answers: readonly PyValue[]): PyValue['t'] | undefined {
  return answers.find((a) => !(a.t === 'str' && a.v === ''))?.t;
}

interface TypeCheck {
  valid: boolean;
  is_variable: boolean;
  error_type: string;
  error: string;
}

/** `type_checker` (one level of nesting, as BFCL). */
function typeChecker(
  param: string,
  value: PyValue,
  answers: PyValue[],
  description: string,
  expected: Expected,
  nested: Expected | undefined,
): TypeCheck {
  let isVariable = false;
  const answerType = possibleAnswerType(answers);
  if (answerType !== undefined && answerType !== expected) isVariable = true;
  let errorType = 'type_error:simple';
  if (value.t === expected) {
    if (nested === undefined) return { valid: true, is_variable: isVariable, error_type: '', error: '' };
    for (const item of answers) {
      let flag = true;
      if (item.t === 'list' && value.t === 'list') {
        for (const v of value.v) {
          if (!typeChecker(param, v, item.v, nested, nested, undefined).valid) {
            flag = false;
            break;
          }
        }
      }
      if (flag) return { valid: true, is_variable: isVariable, error_type: '', error: '' };
    }
    errorType = 'type_error:nested';
    if (answerType !== undefined && value.t === answerType)
      return { valid: false, is_variable: true, error_type: errorType, error: `Nested type checking failed for parameter '${param}'.` };
    return { valid: false, is_variable: false, error_type: 'type_error:simple', error: typeError(param, description, value) };
  }
  if (answerType !== undefined && value.t === answerType) return { valid: true, is_variable: true, error_type: '', error: '' };
  return { valid: false, is_variable: false, error_type: errorType, error: typeError(param, description, value) };
}

function typeError(param: string, description: string, value: PyValue): string {
  return `Incorrect type for parameter '${param}'. Expected type ${description}, got ${pyTypeName(value)}. Parameter value: ${pyRepr(value)}.`;
}

const std = (v: PyValue): PyValue => (v.t === 'str' ? pyStr(standardizeString(v.v)) : v);

/** `string_checker`: normalised model string among the normalised string answers. */
function stringChecker(param: string, value: PyValue & { t: 'str' }, answers: PyValue[]): CheckResult {
  const s = standardizeString(value.v);
  const ok = answers.some((a) => a.t === 'str' && standardizeString(a.v) === s);
  return ok ? OK : fail('value_error:string', `Invalid value for parameter '${param}': ${pyRepr(value)}. Case insensitive.`);
}

/** `len(x)` and `x[j]` of an answer as list_checker indexes it (a string is its characters; `""` is empty). */
function itemsOf(answer: PyValue): PyValue[] {
  if (answer.t === 'list') return answer.v;
  if (answer.t === 'str') return [...answer.v].map(pyStr);
  throw new BfclCheckerError(`TypeError: object of type '${pyTypeName(answer)}' has no len()`);
}

/** `list_checker`: strings directly in the list normalised on both sides, then list equality. */
function listChecker(param: string, value: PyValue & { t: 'list' }, answers: PyValue[]): CheckResult {
  const model: PyValue = { t: 'list', v: value.v.map(std) };
  const ok = answers.some((a) => pyEquals(model, { t: 'list', v: itemsOf(a).map(std) }));
  return ok ? OK : fail('value_error:list/tuple', `Invalid value for parameter '${param}': ${pyRepr(value)}.`);
}

/** `dict_checker`: keys within the answer's, values (strings normalised) among the key's answers, `""` keys optional. */
function dictChecker(param: string, value: PyValue, answers: PyValue[]): CheckResult {
  if (value.t !== 'dict') throw new BfclCheckerError(`AttributeError: '${pyTypeName(value)}' object has no attribute 'items'`);
  let result = fail('dict_checker:unclear', `Invalid value for parameter '${param}'.`);
  for (const answer of answers) {
    if (answer.t === 'str' && answer.v === '') continue;
    result = fail('dict_checker:unclear', `Invalid value for parameter '${param}'.`);
    let flag = true;
    const has = (key: string): boolean =>
      answer.t === 'dict'
        ? answer.v.has(key)
        : answer.t === 'list'
          ? pyIn(pyStr(key), answer.v)
          : answer.t === 'str' && answer.v.includes(key);
    for (const [key, v] of value.v) {
      if (!has(key)) {
        result = fail('value_error:dict_key', `Unexpected dict key parameter: '${key}'.`);
        flag = false;
        break;
      }
      if (answer.t !== 'dict') throw new BfclCheckerError(`TypeError: ${pyTypeName(answer)} indices must be integers`);
      const accepted = answer.v.get(key)!;
      if (accepted.t !== 'list' && accepted.t !== 'str')
        throw new BfclCheckerError(`TypeError: object of type '${pyTypeName(accepted)}' has no len()`);
      if (!pyIn(std(v), itemsOf(accepted).map(std))) {
        result = fail('value_error:dict_value', `Invalid value for parameter '${key}': ${pyRepr(v)}.`);
        flag = false;
        break;
      }
    }
    if (answer.t !== 'dict') throw new BfclCheckerError(`AttributeError: '${pyTypeName(answer)}' object has no attribute 'items'`);
    for (const [key, accepted] of answer.v) {
      const optional = accepted.t === 'list' ? pyIn(pyStr(''), accepted.v) : accepted.t === 'str' && accepted.v.includes('');
      if (!value.v.has(key) && !optional) {
        result = fail('value_error:dict_key', `Missing dict key parameter: '${key}'.`);
        flag = false;
        break;
      }
    }
    if (flag) return OK;
  }
  return result;
}

/** `list_dict_checker`: same length as an answer, each dict checked against the answer's dict at its index. */
function listDictChecker(param: string, value: PyValue & { t: 'list' }, answers: PyValue[]): CheckResult {
  let result = fail('list_dict_checker:unclear', `Invalid value for parameter '${param}'.`);
  for (const answer of answers) {
    const items = itemsOf(answer);
    if (value.v.length !== items.length) {
      result = fail('value_error:list_dict_count', 'Wrong number of dictionaries in the list.');
      continue;
    }
    let flag = true;
    for (let i = 0; i < value.v.length; i++) {
      result = dictChecker(param, value.v[i]!, [items[i]!]);
      if (!result.valid) {
        flag = false;
        break;
      }
    }
    if (flag) return OK;
  }
  return result;
}

/** `simple_function_checker`: one model call against one expected call and its function doc. */
export function simpleFunctionChecker(
  doc: FunctionDoc | undefined,
  call: DecodedCall,
  expected: PossibleCall,
  language: BfclLanguage,
): CheckResult {
  if (doc === undefined)
    throw new BfclCheckerError("TypeError: 'NoneType' object is not subscriptable (no function doc for the expected call)");
  const properties = doc.parameters?.properties;
  const required = doc.parameters?.required;
  if (properties === undefined || required === undefined)
    throw new BfclCheckerError(`KeyError: function doc "${doc.name}" has no parameters.properties/required`);
  const answers = expected.params;
  if (call.name !== doc.name)
    return fail('simple_function_checker:wrong_func_name', `Function name '${doc.name}' not found in model output.`);
  for (const param of required) {
    if (!call.args.has(param)) return fail('simple_function_checker:missing_required', `Missing required parameter: '${param}'.`);
  }
  for (const [param, raw] of call.args) {
    const accepted = answers.get(param);
    if (!Object.hasOwn(properties, param) || accepted === undefined)
      return fail('simple_function_checker:unexpected_param', `Unexpected parameter: '${param}'.`);
    const details = properties[param]!;
    const description = details.type;
    let value = raw;
    let expectedType: Expected;
    let nested: Expected | undefined;
    if (language === 'java' || language === 'javascript') {
      const table = language === 'java' ? JAVA_TYPES : JS_TYPES;
      expectedType = lookup(table, description, 'type');
      if (value.t !== 'str')
        return fail(
          `type_error:${language === 'java' ? 'java' : 'js'}`,
          `Incorrect type for parameter '${param}'. Expected type String, got ${pyTypeName(value)}.`,
        );
      const convert = language === 'java' ? javaTypeConverter : jsTypeConverter;
      try {
        if (NESTED_CONVERSION.has(description)) {
          const nestedType = details.items?.type;
          if (nestedType === undefined) throw new BfclCheckerError(`KeyError: 'items' of parameter '${param}'`);
          nested = lookup(table, nestedType, 'type') as Expected;
          value = convert(value.v, description, nestedType);
        } else value = convert(value.v, description);
      } catch (err) {
        if (err instanceof BfclConversionError) throw new BfclCheckerError(err.message);
        throw err;
      }
    } else {
      expectedType = lookup(PYTHON_TYPES, description, 'type');
      if (PYTHON_NESTED.has(description)) nested = lookup(PYTHON_TYPES, details.items?.type, 'items type');
    }
    if (language === 'python' && description === 'float' && value.t === 'int') value = pyFloat(value.v);
    const typed = typeChecker(param, value, accepted, description, expectedType, nested);
    if (!typed.valid) return fail(typed.error_type, typed.error);
    if (!typed.is_variable) {
      let special: CheckResult | undefined;
      if (expectedType === 'dict') special = dictChecker(param, value, accepted);
      else if (expectedType === 'list' && nested === 'dict' && value.t === 'list') special = listDictChecker(param, value, accepted);
      else if (expectedType === 'str' && value.t === 'str') special = stringChecker(param, value, accepted);
      else if (expectedType === 'list' && value.t === 'list') special = listChecker(param, value, accepted);
      if (special !== undefined) {
        if (!special.valid) return special;
        continue;
      }
    }
    if (!pyIn(value, accepted)) return fail('value_error:others', `Invalid value for parameter '${param}': ${pyRepr(value)}.`);
  }
  for (const [param, accepted] of answers) {
    if (!call.args.has(param) && !pyIn(pyStr(''), accepted))
      return fail('simple_function_checker:missing_optional', `Optional parameter '${param}' not provided and not marked as optional.`);
  }
  return OK;
}

export interface AstCheck extends CheckResult {
  /** parallel categories: BFCL's greedy matcher fails but a one-to-one pairing of calls passes */
  greedy_only_failure?: boolean;
}

/** `find_description`. */
function findDoc(docs: readonly FunctionDoc[], name: string): FunctionDoc | undefined {
  return docs.find((d) => d.name === name);
}

/**
 * `ast_checker`: dispatch on the category name as BFCL does ("parallel" in it, else "multiple" in it, else simple).
 * In parallel categories BFCL matches greedily; when that fails but a one-to-one pairing exists, the result passes
 * with `greedy_only_failure` (the one BFCL behaviour this mode does not copy).
 */
export function astChecker(
  docs: readonly FunctionDoc[],
  output: readonly DecodedCall[],
  expected: readonly PossibleCall[],
  language: BfclLanguage,
  category: string,
): AstCheck {
  if (category.includes('parallel')) return parallelChecker(docs, output, expected, language);
  if (category.includes('multiple')) {
    if (output.length !== expected.length) return fail('multiple_function_checker:wrong_count', 'Wrong number of functions.');
    return simpleFunctionChecker(findDoc(docs, expected[0]!.name), output[0]!, expected[0]!, language);
  }
  if (output.length !== 1) return fail('simple_function_checker:wrong_count', 'Wrong number of functions.');
  return simpleFunctionChecker(docs[0], output[0]!, expected[0]!, language);
}

/** `parallel_function_checker_no_order` (greedy), plus the one-to-one pairing it misses. */
function parallelChecker(
  docs: readonly FunctionDoc[],
  output: readonly DecodedCall[],
  expected: readonly PossibleCall[],
  language: BfclLanguage,
): AstCheck {
  if (output.length !== expected.length) return fail('parallel_function_checker_no_order:wrong_count', 'Wrong number of functions.');
  const cache = new Map<string, CheckResult>();
  const check = (i: number, j: number): CheckResult => {
    const key = `${i}:${j}`;
    let r = cache.get(key);
    if (r === undefined) cache.set(key, (r = simpleFunctionChecker(findDoc(docs, expected[i]!.name), output[j]!, expected[i]!, language)));
    return r;
  };
  const matched = new Set<number>();
  let greedy: CheckResult = OK;
  for (let i = 0; i < expected.length && greedy.valid; i++) {
    let found = false;
    let last: CheckResult | undefined;
    for (let j = 0; j < output.length; j++) {
      if (matched.has(j)) continue;
      last = check(i, j);
      if (last.valid) {
        matched.add(j);
        found = true;
        break;
      }
    }
    if (!found)
      greedy = fail(
        'parallel_function_checker_no_order:cannot_find_match',
        `Could not find a matching function among the unmatched model calls for index ${i} of possible answers${last ? ` (${last.error_type}: ${last.error})` : ''}.`,
      );
  }
  if (greedy.valid) return OK;
  return hasPerfectMatching(expected.length, output.length, (i, j) => check(i, j).valid) ? { ...OK, greedy_only_failure: true } : greedy;
}

/** A one-to-one pairing of every expected call with a distinct model call (augmenting paths). */
function hasPerfectMatching(rows: number, cols: number, fits: (i: number, j: number) => boolean): boolean {
  const owner = new Array<number>(cols).fill(-1);
  const tryRow = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < cols; j++) {
      if (seen[j] || !fits(i, j)) continue;
      seen[j] = true;
      if (owner[j] === -1 || tryRow(owner[j]!, seen)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < rows; i++) if (!tryRow(i, new Array<boolean>(cols).fill(false))) return false;
  return true;
}
