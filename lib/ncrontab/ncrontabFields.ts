/** The six NCRONTAB fields in order, named as error messages name them. */
export const NCRONTAB_FIELDS = ['second', 'minute', 'hour', 'day', 'month', 'day-of-week'] as const;
export type NcrontabFieldName = (typeof NCRONTAB_FIELDS)[number];

interface FieldSpec {
  min: number;
  max: number;
  /** full names; a value may be any case-insensitive prefix of one (the first match wins), as NCrontab reads them */
  names?: readonly string[];
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const SPECS: Record<NcrontabFieldName, FieldSpec> = {
  second: { min: 0, max: 59 },
  minute: { min: 0, max: 59 },
  hour: { min: 0, max: 23 },
  day: { min: 1, max: 31 },
  month: { min: 1, max: 12, names: MONTHS },
  'day-of-week': { min: 0, max: 6, names: WEEKDAYS },
};

/** An expression NCrontab would refuse; `field` names the field at fault (undefined for a wrong field count). */
export class NcrontabSyntaxError extends Error {
  override name = 'NcrontabSyntaxError';
  constructor(
    readonly field: NcrontabFieldName | undefined,
    readonly text: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The sorted values of one field, read as NCrontab (the library behind Azure Functions timer triggers) reads
 * them: comma lists of `*`, `n`, `a-b` (a reversed range is swapped), each optionally `/step` (`n/step` runs to
 * the field's maximum; a step of 0 counts as 1); month and day-of-week names by prefix. Nothing else: no `?`,
 * `L`, `W`, `#`, and day-of-week is 0-6 (Sunday = 0; 7 is refused).
 */
export function parseNcrontabField(field: NcrontabFieldName, text: string): number[] {
  const spec = SPECS[field];
  const fail = (reason: string): never => {
    throw new NcrontabSyntaxError(field, text, reason);
  };
  const value = (token: string): number => {
    if (/^\d/.test(token)) {
      if (!/^\d{1,9}$/.test(token)) fail(`"${token}" is not a number`);
      const n = Number(token);
      if (n < spec.min || n > spec.max) fail(`${n} is outside ${spec.min}-${spec.max}`);
      return n;
    }
    const lower = token.toLowerCase();
    const index = token === '' ? -1 : (spec.names ?? []).findIndex((name) => name.toLowerCase().startsWith(lower));
    if (index < 0)
      fail(
        spec.names
          ? `"${token}" is neither a number ${spec.min}-${spec.max} nor a name (${spec.names.map((n) => n.slice(0, 3)).join(', ')})`
          : `"${token}" is not a number ${spec.min}-${spec.max}`,
      );
    return index + spec.min;
  };
  const values = new Set<number>();
  for (const element of text.split(',')) {
    if (element === '') fail('a list has an empty element');
    const slash = element.indexOf('/');
    const body = slash > 0 ? element.slice(0, slash) : element;
    let step = 1;
    if (slash > 0) {
      const stepText = element.slice(slash + 1);
      if (!/^\d{1,9}$/.test(stepText)) fail(`the step "${stepText}" is not a number`);
      step = Math.max(1, Number(stepText));
    }
    let from: number;
    let to: number;
    const dash = body.indexOf('-');
    if (body === '*') [from, to] = [spec.min, spec.max];
    else if (dash > 0) {
      const [a, b] = [value(body.slice(0, dash)), value(body.slice(dash + 1))];
      [from, to] = a <= b ? [a, b] : [b, a];
    } else {
      from = value(body);
      to = slash > 0 ? spec.max : from;
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return [...values].sort((a, b) => a - b);
}
