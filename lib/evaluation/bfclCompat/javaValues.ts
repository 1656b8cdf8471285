import { pyFloat, pyInt, pyStr, pythonFloat, pythonInt, type PyValue } from './pyValue.js';

/** BFCL's Java type names and the Python type each becomes (`JAVA_TYPE_CONVERSION`). */
export const JAVA_TYPES: Readonly<Record<string, PyValue['t'] | 'set'>> = {
  byte: 'int',
  short: 'int',
  integer: 'int',
  float: 'float',
  double: 'float',
  long: 'int',
  boolean: 'bool',
  char: 'str',
  Array: 'list',
  ArrayList: 'list',
  Set: 'set',
  HashMap: 'dict',
  Hashtable: 'dict',
  Queue: 'list',
  Stack: 'list',
  String: 'str',
  any: 'str',
};

/** Thrown where BFCL's converter raises (an unsupported type): BFCL's run stops there; we report the case. */
export class BfclConversionError extends Error {}

const FLOAT_F = /^-?\d+(\.\d+)?([eE][+-]?\d+)?[fF]$/;
const LONG_L = /^-?\d+[lL]$/;

/**
 * BFCL's `java_type_converter`: Java source text (`"42"`, `"3.5f"`, `"new int[]{1, 2}"`) as the typed value its
 * checker compares; text that does not fit the type stays a string (which then fails the type check).
 */
export function javaTypeConverter(value: string, expectedType: string, nestedType?: string): PyValue {
  if (!(expectedType in JAVA_TYPES)) throw new BfclConversionError(`Unsupported type: ${expectedType}`);
  switch (expectedType) {
    case 'byte':
    case 'short':
    case 'integer':
      return /^-?\d+$/.test(value) ? pyInt(Number(value)) : pyStr(value);
    case 'float':
      return FLOAT_F.test(value) ? pyFloat(Number(value.slice(0, -1))) : pyStr(value);
    case 'double':
      return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value) ? pyFloat(Number(value)) : pyStr(value);
    case 'long':
      return LONG_L.test(value) ? pyInt(Number(value.slice(0, -1))) : pyStr(value);
    case 'boolean':
      return value === 'true' || value === 'false' ? { t: 'bool', v: value === 'true' } : pyStr(value);
    case 'char':
      // BFCL's pattern `^\'.$\'` can never match, so a char stays the text as written
      return pyStr(value);
    case 'ArrayList':
      return parseArrayList(value, nestedType);
    case 'Array':
      return parseArray(value, nestedType);
    case 'HashMap':
      return parseHashMap(value);
    case 'String':
    case 'any':
      return pyStr(value);
    default:
      // BFCL's java_type_converter knows no other Java type and raises for it; reproduced, so the case fails as BFCL's
      // checker fails it (rule checker_error), and the message says so
      throw new BfclConversionError(`BFCL's checker has no conversion for Java type ${expectedType}: it fails every output for it`);
  }
}

function element(text: string, nestedType: string | undefined): PyValue {
  if (nestedType === 'char' || nestedType === 'String') return pyStr(text.slice(1, -1));
  return nestedType ? javaTypeConverter(text, nestedType) : parseJavaValue(text);
}

function parseArrayList(input: string, nestedType: string | undefined): PyValue {
  const asList = /new\s+ArrayList<\w*>\(Arrays\.asList\((.+?)\)\)/.exec(input);
  if (asList) return { t: 'list', v: asList[1]!.split(',').map((e) => element(e.trim(), nestedType)) };
  const adds = /new\s+ArrayList<\w*>\(\)\s*\{\{\s*(.+?)\s*\}\}/s.exec(input);
  if (adds) return { t: 'list', v: [...adds[1]!.matchAll(/add\((.+?)\)/g)].map((m) => element(m[1]!.trim(), nestedType)) };
  if (/new\s+ArrayList<\w*>\(\)/.test(input)) return { t: 'list', v: [] };
  return pyStr(input);
}

function parseArray(input: string, nestedType: string | undefined): PyValue {
  const m = /new\s+\w+\[\]\s*\{(.*?)\}/.exec(input);
  if (!m) return pyStr(input);
  const parts = m[1]!.split(',').filter((x) => x.trim() !== '');
  return { t: 'list', v: parts.map((x) => (nestedType ? javaTypeConverter(x.trim(), nestedType) : parseJavaValue(x.trim()))) };
}

function parseHashMap(input: string): PyValue {
  const m = /new\s+HashMap<.*?>\s*\(\)\s*\{\s*\{?\s*(.*?)\s*\}?\s*\}/s.exec(input);
  if (m) {
    const map = new Map<string, PyValue>();
    if (m[1]!.trim() !== '') for (const put of m[1]!.matchAll(/put\("(.*?)",\s*(.*?)\)/g)) map.set(put[1]!, parseJavaValue(put[2]!.trim()));
    return { t: 'dict', v: map };
  }
  if (/new\s+HashMap<.*?>\s*\(\)/.test(input)) return { t: 'dict', v: new Map() };
  return pyStr(input);
}

/** BFCL's `parse_java_value`: a collection element whose type is not known. */
export function parseJavaValue(text: string): PyValue {
  if (text === 'true' || text === 'false') return { t: 'bool', v: text === 'true' };
  if (text.startsWith('"') && text.endsWith('"')) return pyStr(text.slice(1, -1));
  if (LONG_L.test(text)) return pyInt(Number(text.slice(0, -1)));
  if (FLOAT_F.test(text)) return pyFloat(Number(text.slice(0, -1)));
  const i = pythonInt(text);
  if (i !== undefined) return pyInt(i);
  const f = pythonFloat(text);
  return f !== undefined ? pyFloat(f) : pyStr(text);
}
