/**
 * Values as BFCL's Python checker sees them: JSON turned into Python objects by `json.loads` (a number written with
 * `.` or an exponent is a `float`, else an `int`; `bool` is its own type) and compared with Python's `==`, where
 * `True == 1 == 1.0`. The compatibility checker works on these, never on plain JSON, because JSON.parse loses the
 * int/float distinction that BFCL's type checks depend on.
 */
export type PyValue =
  | { t: 'int'; v: number }
  | { t: 'float'; v: number }
  | { t: 'bool'; v: boolean }
  | { t: 'str'; v: string }
  | { t: 'none' }
  | { t: 'list'; v: PyValue[] }
  | { t: 'dict'; v: Map<string, PyValue> };

export type PyType = PyValue['t'];

export const pyInt = (v: number): PyValue => ({ t: 'int', v });
export const pyFloat = (v: number): PyValue => ({ t: 'float', v });
export const pyStr = (v: string): PyValue => ({ t: 'str', v });
export const pyList = (v: PyValue[]): PyValue => ({ t: 'list', v });

/** Python's type name, as BFCL's messages print it. */
export function pyTypeName(value: PyValue): string {
  return { int: 'int', float: 'float', bool: 'bool', str: 'str', none: 'NoneType', list: 'list', dict: 'dict' }[value.t];
}

function numeric(value: PyValue): number | undefined {
  if (value.t === 'int' || value.t === 'float') return value.v;
  if (value.t === 'bool') return value.v ? 1 : 0;
  return undefined;
}

/** Python `a == b` for the value kinds JSON and BFCL's converters produce. */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && na === nb;
  if (a.t === 'str' && b.t === 'str') return a.v === b.v;
  if (a.t === 'none' || b.t === 'none') return a.t === b.t;
  if (a.t === 'list' && b.t === 'list') return a.v.length === b.v.length && a.v.every((x, i) => pyEquals(x, b.v[i]!));
  if (a.t === 'dict' && b.t === 'dict') {
    if (a.v.size !== b.v.size) return false;
    for (const [k, x] of a.v) {
      const y = b.v.get(k);
      if (y === undefined || !pyEquals(x, y)) return false;
    }
    return true;
  }
  return false;
}

/** Python `value in list`. */
export function pyIn(value: PyValue, list: readonly PyValue[]): boolean {
  return list.some((x) => pyEquals(value, x));
}

/**
 * A parsed JSON value as Python: `floatPaths` are the JSON pointers of numbers written in float form with an
 * integral value (`5.0`), which JSON.parse cannot tell from ints; a non-integral number is a float anyway.
 */
export function fromJson(value: unknown, floatPaths: ReadonlySet<string> = new Set(), path = ''): PyValue {
  if (value === null || value === undefined) return { t: 'none' };
  if (typeof value === 'boolean') return { t: 'bool', v: value };
  if (typeof value === 'number') return Number.isInteger(value) && !floatPaths.has(path) ? pyInt(value) : pyFloat(value);
  if (typeof value === 'string') return pyStr(value);
  if (Array.isArray(value)) return pyList(value.map((x, i) => fromJson(x, floatPaths, `${path}/${i}`)));
  const map = new Map<string, PyValue>();
  for (const [k, x] of Object.entries(value as Record<string, unknown>)) map.set(k, fromJson(x, floatPaths, `${path}/${escapePointer(k)}`));
  return { t: 'dict', v: map };
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Python `repr` of a value, close enough for messages. */
export function pyRepr(value: PyValue): string {
  switch (value.t) {
    case 'int':
      return String(value.v);
    case 'float':
      return Number.isInteger(value.v) ? `${value.v}.0` : String(value.v);
    case 'bool':
      return value.v ? 'True' : 'False';
    case 'none':
      return 'None';
    case 'str':
      return `'${value.v}'`;
    case 'list':
      return `[${value.v.map(pyRepr).join(', ')}]`;
    case 'dict':
      return `{${[...value.v].map(([k, x]) => `'${k}': ${pyRepr(x)}`).join(', ')}}`;
  }
}

/** Python's `int(text)` (whitespace and `_` between digits allowed), or undefined where it raises. */
export function pythonInt(text: string): number | undefined {
  const s = text.trim();
  if (!/^[+-]?\d+(?:_\d+)*$/.test(s)) return undefined;
  return Number(s.replace(/_/g, ''));
}

/** Python's `float(text)`, or undefined where it raises. */
export function pythonFloat(text: string): number | undefined {
  const s = text.trim().replace(/(?<=\d)_(?=\d)/g, '');
  if (/^[+-]?(?:inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(s)) return NaN;
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(s)) return undefined;
  return Number(s);
}
