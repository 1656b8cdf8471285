/** Ignored paths of a data comparison: JSON pointers (RFC 6901) where a `*` segment stands for any key or index. */

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
