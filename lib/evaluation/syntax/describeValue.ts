const MAX_SHOWN = 40;

/** A short, readable rendering of a value for messages: `string "ten"`, `number 5`, `an array`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  switch (typeof value) {
    case 'string': {
      const shown = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
      return `string ${JSON.stringify(shown)}`;
    }
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value} ${String(value)}`;
    case 'object':
      return 'an object';
    case 'undefined':
      return 'nothing';
    default:
      return `a ${typeof value}`;
  }
}

/** The JSON type name of a value, as JSON Schema names it (`integer` for integral numbers). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Where in a text something went wrong, for messages: `at position 8, before "\"b\": 2}"`. */
export function describePosition(text: string, position: number): string {
  if (position >= text.length) return `at the end of the text (position ${text.length})`;
  const ahead = text.slice(position, position + 24);
  return `at position ${position}, before ${JSON.stringify(ahead)}${position + 24 < text.length ? '…' : ''}`;
}

/** Is this UTF-16 code unit one that String.prototype.trim removes (whitespace or a line terminator)? */
export function isSpaceCode(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
