import { pointerOf } from '../../domain/index.js';

/**
 * Cheap pre-check: could this text hold a number written in float form with an integral value (`5.0`, `1e3`,
 * `2.50E2`, `0.99999999999999999`)? False positives are fine (the exact scan decides); false negatives are not.
 */
const FLOAT_HINT = /\d\.\d*0(?!\d)|\d[eE][-+]?\d|\.\d{15}/;

export function mayContainFloatLiteral(text: string): boolean {
  return FLOAT_HINT.test(text);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * JSON pointers of the number literals in `text` that are written in float form (with `.` or an exponent) and
 * have an integral value, which JSON.parse cannot tell from integers. `text` must be valid JSON (parse it
 * first); the scan is iterative, so nesting depth is not a problem.
 */
export function findFloatLiteralPaths(text: string): string[] {
  const found: string[] = [];
  const path: (string | number)[] = [];
  const inArray: boolean[] = [];
  let expectKey = false;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const isArray = c === 0x5b;
      path.push(isArray ? 0 : '');
      inArray.push(isArray);
      expectKey = !isArray;
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      path.pop();
      inArray.pop();
      expectKey = false;
      i++;
    } else if (c === 0x2c /* , */) {
      const top = path.length - 1;
      if (inArray[top]) path[top] = (path[top] as number) + 1;
      else expectKey = true;
      i++;
    } else if (c === QUOTE) {
      let j = i + 1;
      let escaped = false;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === QUOTE) break;
        if (d === BACKSLASH) {
          escaped = true;
          j += 2;
        } else j++;
      }
      if (expectKey) {
        path[path.length - 1] = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        expectKey = false;
      }
      i = j + 1;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      let floatForm = false;
      while (j < n) {
        const d = text.charCodeAt(j);
        if ((d >= 0x30 && d <= 0x39) || d === 0x2b || d === 0x2d) j++;
        else if (d === 0x2e || d === 0x65 || d === 0x45) {
          floatForm = true;
          j++;
        } else break;
      }
      if (floatForm && Number.isInteger(Number(text.slice(i, j)))) found.push(pointerOf(path));
      i = j;
    } else i++;
  }
  return found;
}
