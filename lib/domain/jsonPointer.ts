/** JSON pointers (RFC 6901), the paths of every diff: `''` is the root, `/a/0/b` below it. */

/** One RFC 6901 reference token: `~` becomes `~0`, `/` becomes `~1`. */
export function escapePointerSegment(segment: string | number): string {
  const text = String(segment);
  if (text.indexOf('~') === -1 && text.indexOf('/') === -1) return text;
  return text.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The JSON pointer of a path of keys and indexes (`['a', 0]` -> `/a/0`); the root is `''`. */
export function pointerOf(segments: readonly (string | number)[]): string {
  let pointer = '';
  for (const segment of segments) pointer += '/' + escapePointerSegment(segment);
  return pointer;
}

/** The pointers under `prefix`, re-rooted at it (`/content/1/input/a` under `/content/1/input` -> `/a`). */
export function pointersUnder(pointers: readonly string[], prefix: string): string[] {
  const out: string[] = [];
  const head = prefix + '/';
  for (const p of pointers) if (p.startsWith(head)) out.push(p.slice(prefix.length));
  return out;
}

/** Split a JSON pointer into its unescaped reference tokens (`/a~1b/0` -> `['a/b', '0']`). */
export function segmentsOf(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The pointer of `key` under `parent` (`childPointer('/a', 'b/c')` -> `/a/b~1c`). */
export function childPointer(parent: string, key: string | number): string {
  return typeof key === 'number' ? `${parent}/${key}` : `${parent}/${escapePointerSegment(key)}`;
}
