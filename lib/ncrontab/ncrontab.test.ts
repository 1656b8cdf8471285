import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NcrontabSyntaxError, parseNcrontab } from './ncrontab.js';

const at = (iso: string) => new Date(iso);
const iso = (date: Date | undefined) => date?.toISOString();
const ALL_HOURS = Array.from({ length: 24 }, (_, i) => i);

describe('parseNcrontab: the grammar NCrontab reads', () => {
  it.each([
    ['0 30 9 * Jan Mon', { second: [0], minute: [30], hour: [9], month: [1], 'day-of-week': [1] }],
    // names are case-insensitive prefixes of the full name, the first match wins ("Ju" is June, "T" Tuesday)
    ['0 0 0 * Ju T', { month: [6], 'day-of-week': [2] }],
    ['0 0 0 * JUNE saturday', { month: [6], 'day-of-week': [6] }],
    // a reversed range is swapped, not refused; n/step runs to the maximum; a step of 0 counts as 1
    [
      '5/20 10-50/20 */0 1,15 * FRI-MON',
      { second: [5, 25, 45], minute: [10, 30, 50], hour: ALL_HOURS, day: [1, 15], 'day-of-week': [1, 2, 3, 4, 5] },
    ],
    ['0 0 */6 1-3,31 */5 0', { hour: [0, 6, 12, 18], day: [1, 2, 3, 31], month: [1, 6, 11], 'day-of-week': [0] }],
  ])('%j', (expression, expected) => {
    expect(parseNcrontab(expression).fields).toMatchObject(expected);
  });

  it.each<[string, string | undefined, RegExp]>([
    ['0 0 2 * *', undefined, /has 5 field\(s\)/],
    ['0 0 2 * * * 2024', undefined, /has 7 field\(s\)/],
    ['0 0 25 * * *', 'hour', /25 is outside 0-23/],
    ['0 0 0 0 * *', 'day', /0 is outside 1-31/],
    ['0 0 0 * 13 *', 'month', /13 is outside 1-12/],
    // cron-parser accepts all of these; NCrontab (Azure) does not
    ['0 0 0 * * 7', 'day-of-week', /7 is outside 0-6/],
    ['0 0 0 ? * MON', 'day', /"\?" is not a number 1-31/],
    ['0 0 0 L * *', 'day', /"L" is not a number/],
    ['0 0 0 * * 5#3', 'day-of-week', /"5#3" is not a number/],
    ['0 0 0 * * FUNDAY', 'day-of-week', /"FUNDAY" is neither a number 0-6 nor a name \(Sun, Mon, Tue, Wed, Thu, Fri, Sat\)/],
    ['0 0 0 * * H', 'day-of-week', /"H" is neither/],
    ['0 1,,2 0 * * *', 'minute', /empty element/],
    ['0 */x 0 * * *', 'minute', /the step "x" is not a number/],
    ['0 -5 0 * * *', 'minute', /"-5" is not a number/],
    ['0 5a 0 * * *', 'minute', /"5a" is not a number/],
  ])('refuses %j (field %s)', (expression, field, message) => {
    const error = (() => {
      try {
        parseNcrontab(expression);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(NcrontabSyntaxError);
    expect((error as NcrontabSyntaxError).field).toBe(field);
    expect((error as Error).message).toMatch(message);
  });

  it.each([
    ['0 * * * * *', true],
    ['0 0 9-17 * * *', true],
    ['0 */30 * * * *', true],
    ['*/10 0 9 * * *', false],
    ['0 30 1 * * *', false],
    ['0 0 */2 * * *', false],
    ['0 0,30 8,20 * * *', false],
  ])('%j is an interval schedule: %s (Azure: *, or a run NCrontab prints as a-b, in second/minute/hour)', (expression, expected) => {
    expect(parseNcrontab(expression).isInterval).toBe(expected);
  });
});

describe('occurrences: every field must match, day-of-month AND day-of-week', () => {
  it.each([
    // Friday the 13th: Unix cron / cron-parser OR the two day fields and would answer 2024-01-05 (a Friday) and 2024-12-27
    ['0 0 12 13 * 5', '2024-01-01T00:00:00Z', '2024-09-13T12:00:00.000Z', '2024-12-31T00:00:00Z', '2024-12-13T12:00:00.000Z'],
    ['0 0 12 13 * FRI', '2024-09-13T12:00:00Z', '2024-12-13T12:00:00.000Z', '2024-09-13T12:00:00Z', '2024-09-13T12:00:00.000Z'],
    // the first Monday of a month: cron-parser would fire on every day 1-7 and on every Monday
    ['0 0 9 1-7 * MON', '2024-03-05T00:00:00Z', '2024-04-01T09:00:00.000Z', '2024-03-31T00:00:00Z', '2024-03-04T09:00:00.000Z'],
    // 29 February on a Monday: 2016, then 2044
    ['0 0 0 29 2 1', '2016-03-01T00:00:00Z', '2044-02-29T00:00:00.000Z', '2043-12-31T00:00:00Z', '2016-02-29T00:00:00.000Z'],
    ['0 0 0 31 * *', '2024-04-01T00:00:00Z', '2024-05-31T00:00:00.000Z', '2024-05-15T00:00:00Z', '2024-03-31T00:00:00.000Z'],
    ['0 0 2 * * *', '2024-12-31T02:00:00Z', '2025-01-01T02:00:00.000Z', '2025-01-01T01:59:59.999Z', '2024-12-31T02:00:00.000Z'],
    ['30 15 * * * *', '2024-01-01T00:15:30.400Z', '2024-01-01T01:15:30.000Z', '2024-01-01T00:15:30.400Z', '2024-01-01T00:15:30.000Z'],
  ])('%j: next after %s is %s; last at or before %s is %s', (expression, after, next, atOrBefore, last) => {
    const expr = parseNcrontab(expression);
    expect([iso(expr.nextAfter(at(after))), iso(expr.lastAtOrBefore(at(atOrBefore)))]).toEqual([next, last]);
    expect([expr.matches(at(next)), expr.matches(at(last))]).toEqual([true, true]);
  });

  it.each(['0 0 0 30 2 *', '0 0 0 31 4,6,9,11 *', '0 0 0 31 2 MON'])('%j never fires, in either direction', (expression) => {
    const expr = parseNcrontab(expression);
    expect([expr.nextAfter(at('2024-01-01T00:00:00Z')), expr.lastAtOrBefore(at('2024-01-01T00:00:00Z'))]).toEqual([undefined, undefined]);
  });

  it.each([
    ['2024-09-13T12:00:00Z', true],
    ['2024-09-13T12:00:00.999Z', true],
    ['2024-09-13T12:00:01Z', false],
    ['2024-12-13T12:00:00Z', true],
    ['2024-12-20T12:00:00Z', false], // a Friday, not the 13th
    ['2024-02-13T12:00:00Z', false], // the 13th, a Tuesday
  ])('"0 0 12 13 * FRI" matches %s: %s', (time, expected) => {
    expect(parseNcrontab('0 0 12 13 * FRI').matches(at(time))).toBe(expected);
  });
});

/** Oracle: step day by day, then second by second through a matching day (dense expressions only). */
function bruteNext(expression: string, after: Date, maxDays: number): Date | undefined {
  const expr = parseNcrontab(expression);
  const dayStart = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate());
  for (let d = 0; d < maxDays; d += 1) {
    const day = new Date(dayStart + d * 86_400_000);
    const f = expr.fields;
    if (!f.day.includes(day.getUTCDate()) || !f.month.includes(day.getUTCMonth() + 1) || !f['day-of-week'].includes(day.getUTCDay()))
      continue;
    for (let s = 0; s < 86_400; s += 1) {
      const t = new Date(day.getTime() + s * 1000);
      if (t.getTime() > after.getTime() && expr.matches(t) && Math.floor(t.getTime() / 1000) > Math.floor(after.getTime() / 1000)) return t;
    }
  }
  return undefined;
}

describe('occurrences agree with a brute-force oracle', () => {
  const list = (min: number, max: number) =>
    fc.uniqueArray(fc.integer({ min, max }), { minLength: 1, maxLength: 3 }).map((v) => v.join(','));
  const expression = fc
    .tuple(
      list(0, 59),
      list(0, 59),
      list(0, 23),
      fc.oneof(fc.constant('*'), list(1, 28)),
      fc.oneof(fc.constant('*'), list(1, 12)),
      fc.oneof(fc.constant('*'), list(0, 6)),
    )
    .map((parts) => parts.join(' '));
  const instant = fc.integer({ min: Date.UTC(2023, 0, 1), max: Date.UTC(2026, 0, 1) }).map((ms) => new Date(ms));

  it('nextAfter is the first matching second after the time, and lastAtOrBefore walks back to it', () => {
    fc.assert(
      fc.property(expression, instant, (expr, after) => {
        const parsed = parseNcrontab(expr);
        const next = parsed.nextAfter(after);
        const expected = bruteNext(expr, after, 3 * 366);
        if (expected) expect(iso(next)).toBe(iso(expected));
        if (next) {
          expect(iso(parsed.lastAtOrBefore(next))).toBe(iso(next));
          const before = parsed.lastAtOrBefore(new Date(next.getTime() - 1000));
          expect(before === undefined || before.getTime() <= after.getTime()).toBe(true);
        }
      }),
      { numRuns: 60, seed: 20240913 },
    );
  });
});
