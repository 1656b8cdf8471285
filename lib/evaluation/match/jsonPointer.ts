/**
 * JSON pointer (RFC 6901) helpers for diff paths. A path is `''` for the root and `/a/0/b` below it.
 */

/** The pointer of `key` under `parent`: `~` becomes `~0` and `/` becomes `~1`. */
export function childPointer(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}/${key}`;
  if (key.indexOf('~') === -1 && key.indexOf('/') === -1) return `${parent}/${key}`;
  return `${parent}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * One regular expression matching every pointer in `patterns` exactly; a `*` segment matches any single key or
 * array index. Returns undefined for an empty list. Throws on a pattern that is not a JSON pointer (broken config).
 */
export function compilePointerPatterns(patterns: readonly string[]): RegExp | undefined {
  if (patterns.length === 0) return undefined;
  const alternatives = patterns.map((pattern) => {
    if (pattern !== '' && !pattern.startsWith('/')) {
      throw new Error(`ignore path "${pattern}" is not a JSON pointer: it must be empty or start with "/"`);
    }
    return pattern
      .split('/')
      .map((segment) => (segment === '*' ? '[^/]*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
  });
  return new RegExp(`^(?:${alternatives.join('|')})$`);
}
