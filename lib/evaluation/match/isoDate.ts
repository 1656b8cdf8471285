const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/**
 * The instant (milliseconds since the epoch, fractional) an ISO-8601 date or date-time denotes, or undefined.
 * Accepts `YYYY-MM-DD` (midnight UTC), `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z`, `±HH:MM` or `±HHMM`, a space for `T`.
 * A date-time without an offset is read as UTC. Out-of-range fields (month 13, Feb 30, hour 25) are rejected.
 */
export function parseIsoInstant(text: string): number | undefined {
  if (text.length < 10 || text.length > 40) return undefined;
  const m = ISO_8601.exec(text);
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]!) return undefined;
  if (month === 2 && day === 29 && !isLeapYear(year)) return undefined;
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const fractionMs = m[7] === undefined ? 0 : Number(`0.${m[7]}`) * 1000;
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const offsetHours = Number(m[10]);
    const offsetMins = Number(m[11]);
    if (offsetHours > 23 || offsetMins > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, 0);
  return utc.getTime() + fractionMs - offsetMinutes * 60_000;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
