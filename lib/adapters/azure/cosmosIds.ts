import { createHash } from 'node:crypto';

/** Characters a Cosmos DB item id may not hold, and `%` (the escape character of this encoding). */
const ESCAPED = /[%/\\?#]/g;
const MAX_ID_LENGTH = 255;

/**
 * The Cosmos DB item id of an application key (a case id, run id, ...). Application ids are any non-empty
 * string; Cosmos ids may not contain `/ \ ? #` and are at most 255 characters. The encoding is injective:
 * `%` and the four forbidden characters are percent-escaped (`%25 %2F %5C %3F %23`), and an id still longer
 * than 255 characters becomes `%H` + its SHA-256 (a form no escaped id can take). Ids without those characters
 * are kept as they are, so documents stay readable in the portal.
 */
export function toCosmosId(key: string): string {
  const escaped = key.replace(ESCAPED, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  if (escaped.length <= MAX_ID_LENGTH && !/\s$/.test(escaped)) return escaped;
  return `%H${createHash('sha256').update(key).digest('hex')}`;
}
