/** Small readers shared by the format extractors. */
export type Fields = Record<string, unknown>;

/** A non-null, non-array object. */
export function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Texts joined by newlines; null when there is no non-blank text (so "" is never an answer). */
export function joinAnswer(texts: readonly string[]): string | null {
  if (texts.length === 0) return null;
  const joined = texts.length === 1 ? (texts[0] as string) : texts.join('\n');
  return joined.trim() === '' ? null : joined;
}

/** The texts of content parts of the given types (`{type: 'text', text}` and `{type: 'refusal', refusal}`). */
export function partTexts(parts: readonly unknown[], textTypes: ReadonlySet<string>, into: string[] = []): string[] {
  for (const part of parts) {
    if (!isFields(part)) continue;
    if (typeof part.text === 'string' && textTypes.has(part.type as string)) into.push(part.text);
    else if (part.type === 'refusal' && typeof part.refusal === 'string') into.push(part.refusal);
  }
  return into;
}

/** The first of `keys` that the object has (not undefined), or undefined. */
export function firstKey(value: Fields, keys: readonly string[]): string | undefined {
  for (const key of keys) if (value[key] !== undefined) return key;
  return undefined;
}

/** `a, b, c` of an object's first keys, for messages. */
export function keyList(value: Fields, max = 8): string {
  const keys = Object.keys(value);
  const shown = keys.slice(0, max).join(', ');
  return keys.length > max ? `${shown}, …` : shown || 'none';
}
