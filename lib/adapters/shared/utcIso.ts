/** An ISO date-time as `Date#toISOString` writes it (UTC, milliseconds), so stored and bound values compare as text. */
export function utcIso(value: string, field = 'date-time'): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new RangeError(`${field} must be an ISO date-time, got ${JSON.stringify(value)}`);
  return new Date(time).toISOString();
}
