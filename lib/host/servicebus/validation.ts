/** Reads an optional whole-number setting; a wrong value is broken configuration and throws. */
export function wholeNumberOption(name: string, value: unknown, fallback: number, minimum = 1): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw new RangeError(`${name} must be an integer >= ${minimum}, got ${String(value)}.`);
  }
  return value;
}

export function nonEmptyString(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`${name} must be a non-empty string, got ${JSON.stringify(value) ?? typeof value}.`);
  }
  return value;
}
