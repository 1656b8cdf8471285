import { pyFloat, pyInt, pyStr, pythonFloat, pythonInt, type PyValue } from './pyValue.js';
import { BfclConversionError } from './javaValues.js';

/** BFCL's JavaScript type names and the Python type each becomes (`JS_TYPE_CONVERSION`). */
export const JS_TYPES: Readonly<Record<string, PyValue['t']>> = {
  String: 'str',
  integer: 'int',
  float: 'float',
  Bigint: 'int',
  Boolean: 'bool',
  dict: 'dict',
  array: 'list',
  any: 'str',
};

const quoted = (s: string): boolean => (s.startsWith('"') && s.endsWith('"')) || (s.startsWith("'") && s.endsWith("'"));

/** BFCL's `js_type_converter`: JavaScript source text as the typed value its checker compares (else the text). */
export function jsTypeConverter(value: string, expectedType: string, nestedType?: string): PyValue {
  if (!(expectedType in JS_TYPES)) throw new BfclConversionError(`Unsupported type: ${expectedType}`);
  switch (expectedType) {
    case 'String':
      return pyStr(quoted(value) ? value.slice(1, -1) : value);
    case 'integer':
      return /^-?\d+$/.test(value) ? pyInt(Number(value)) : pyStr(value);
    case 'float':
      return /^-?\d+(\.\d+)?$/.test(value) ? pyFloat(Number(value)) : pyStr(value);
    case 'Bigint':
      return /^-?\d+n$/.test(value) ? pyInt(Number(value.slice(0, -1))) : pyStr(value);
    case 'Boolean':
      return value === 'true' || value === 'false' ? { t: 'bool', v: value === 'true' } : pyStr(value);
    case 'dict':
      return parseJsDict(value.trim());
    case 'array':
      return parseJsArray(value.trim(), nestedType);
    default:
      return pyStr(value);
  }
}

function parseJsArray(code: string, nestedType: string | undefined): PyValue {
  try {
    const twoD = /^(?:\[\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\]|\bnew\s+Array\(\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\))/.exec(code);
    if (twoD) {
      const rows: PyValue[] = [];
      [...twoD[0].matchAll(/\[(.*?)\]/g)].forEach((m, idx) => {
        let inner = m[1]!.trim();
        if (idx === 0 && inner.startsWith('[')) inner = inner.slice(1);
        rows.push({ t: 'list', v: inner.split(',').map((e) => parseJsValue(e.trim())) });
      });
      return { t: 'list', v: rows };
    }
    const one = /^(?:\[(.*?)\]|\bnew\s+Array\((.*?)\))/.exec(code);
    if (!one) return pyStr(code);
    const body = (one[1] ?? one[2] ?? '').trim();
    const elements = body === '' ? [] : body.split(',');
    return {
      t: 'list',
      v: elements.map((e) => {
        const s = e.trim();
        if (!nestedType) return parseJsValue(s);
        return s.startsWith("'") || s.startsWith('"') ? jsTypeConverter(s, nestedType, 'String') : jsTypeConverter(s, nestedType);
      }),
    };
  } catch {
    // BFCL's bare `except` returns the text
    return pyStr(code);
  }
}

/** Python's `str.strip(chars)`. */
function stripChars(s: string, chars: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && chars.includes(s[a]!)) a++;
  while (b > a && chars.includes(s[b - 1]!)) b--;
  return s.slice(a, b);
}

function parseJsDict(code: string): PyValue {
  if (code === '{}') return { t: 'dict', v: new Map() };
  const m = /^\{(.*?)\}/.exec(code);
  if (!m) return pyStr(code);
  const map = new Map<string, PyValue>();
  for (const pair of m[1]!.matchAll(/([^:]+):\s*(.*?)(?:,\s*(?=[^,]+:)|$)/g)) {
    const key = stripChars(pair[1]!.trim(), '\'"');
    const value = pair[2]!.trim();
    if (value.startsWith('[') && value.endsWith(']')) map.set(key, parseJsArray(value, undefined));
    else if (value.startsWith('{') && value.endsWith('}')) map.set(key, parseJsDict(value));
    else map.set(key, parseJsValue(stripChars(value, '\'"')));
  }
  return { t: 'dict', v: map };
}

/** BFCL's `parse_js_value`. */
export function parseJsValue(text: string): PyValue {
  const s = text.trim();
  if (s === 'true' || s === 'false') return { t: 'bool', v: s === 'true' };
  if (quoted(s)) return pyStr(s.slice(1, -1));
  const i = pythonInt(s);
  if (i !== undefined) return pyInt(i);
  const f = pythonFloat(s);
  return f !== undefined ? pyFloat(f) : pyStr(s);
}
