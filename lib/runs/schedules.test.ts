import { describe, expect, it } from 'vitest';
import { lastFireTime, scheduleProblem } from './schedules.js';

describe('scheduleProblem', () => {
  it.each(['0 0 2 * * *', '0 30 6 * * MON-FRI', '0 */15 * * * *', '30 0 0 1 * *', ' 0 0 2 * * * '])('accepts %j', (expression) => {
    expect(scheduleProblem(expression)).toBeUndefined();
    expect(lastFireTime(expression, new Date('2026-03-01T12:00:00Z'))).toBeInstanceOf(Date);
  });

  it.each<[string, string]>([
    ['', '"" has 0 field(s); a client schedule is six-field NCRONTAB'],
    ['0 2 * * *', 'Five fields is Unix cron: prepend the seconds, e.g. "0 0 2 * * *".'],
    ['01:00:00', 'TimeSpan intervals are not client schedules.'],
    ['@daily', '"@daily" has 1 field(s)'],
    ['0 0 25 * * *', 'the hour field "25" is not valid'],
    ['0 61 2 * * *', 'the minute field "61" is not valid'],
    ['0 0 2 * * FUNDAY', 'the day-of-week field "FUNDAY" is not valid'],
    ['0 0 2 30 2 *', '"0 0 2 30 2 *" never fires or cannot be read'],
    ['*/10 * * * * *', 'the second field "*/10" must be one number such as 0'],
  ])('refuses %j: %s', (expression, message) => {
    expect(scheduleProblem(expression)).toContain(message);
  });
});
