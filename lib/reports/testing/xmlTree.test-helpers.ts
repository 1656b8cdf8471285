/**
 * A strict little XML 1.0 reader for tests (no XML library is installed): checks well-formedness (one root,
 * matched and properly nested tags, quoted unique attributes, known entities, no forbidden characters, no `<` or
 * `&` loose in text, no `]]>` in text) and returns the element tree with decoded text and attributes. No DTDs,
 * no namespaces processing, no CDATA (the reports never write one).
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** the decoded text directly inside the element */
  text: string;
}

export class XmlError extends Error {}

const NAME_START = /[A-Za-z_:]/;
const NAME_CHAR = /[A-Za-z0-9_:.-]/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function allowedChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

export function parseXml(source: string): XmlElement {
  for (const ch of source) {
    const code = ch.codePointAt(0)!;
    if (!allowedChar(code)) throw new XmlError(`character U+${code.toString(16).padStart(4, '0')} is not allowed in XML 1.0`);
  }
  let i = 0;
  const fail = (why: string): never => {
    throw new XmlError(`${why} at offset ${i}: ${JSON.stringify(source.slice(i, i + 40))}`);
  };
  const skipSpace = (): void => {
    while (i < source.length && ' \t\r\n'.includes(source[i]!)) i += 1;
  };
  const readName = (): string => {
    if (!NAME_START.test(source[i] ?? '')) fail('expected a name');
    const start = i;
    while (i < source.length && NAME_CHAR.test(source[i]!)) i += 1;
    return source.slice(start, i);
  };
  const decode = (raw: string, where: string): string =>
    raw.replace(/&([^;]*);|&/g, (m, ref: string | undefined) => {
      if (ref === undefined) return fail(`a bare & in ${where}`);
      if (ref.startsWith('#x')) return String.fromCodePoint(checkedRef(parseInt(ref.slice(2), 16)));
      if (ref.startsWith('#')) return String.fromCodePoint(checkedRef(parseInt(ref.slice(1), 10)));
      const e = ENTITIES[ref];
      return e ?? fail(`unknown entity &${ref}; in ${where}`);
    });
  const checkedRef = (code: number): number =>
    Number.isFinite(code) && allowedChar(code) ? code : fail(`character reference to a forbidden character ${code}`);

  if (source.startsWith('<?xml')) {
    const end = source.indexOf('?>');
    if (end < 0) fail('unterminated XML declaration');
    i = end + 2;
  }
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  for (;;) {
    const lt = source.indexOf('<', i);
    const text = source.slice(i, lt < 0 ? source.length : lt);
    if (text.includes(']]>')) fail('"]]>" in text');
    if (stack.length) stack[stack.length - 1]!.text += decode(text, 'text');
    else if (text.trim() !== '') fail('text outside the root element');
    if (lt < 0) break;
    i = lt;
    if (source.startsWith('<!--', i)) {
      const end = source.indexOf('-->', i + 4);
      if (end < 0) fail('unterminated comment');
      i = end + 3;
      continue;
    }
    if (source.startsWith('<!', i) || source.startsWith('<?', i)) fail('declarations, CDATA and processing instructions are not expected');
    if (source.startsWith('</', i)) {
      i += 2;
      const name = readName();
      skipSpace();
      if (source[i] !== '>') fail('expected > after a closing tag');
      i += 1;
      const open = stack.pop();
      if (!open || open.name !== name) fail(`</${name}> closes ${open ? `<${open.name}>` : 'nothing'}`);
      continue;
    }
    i += 1;
    const element: XmlElement = { name: readName(), attributes: {}, children: [], text: '' };
    for (;;) {
      const before = i;
      skipSpace();
      if (source.startsWith('/>', i) || source[i] === '>') break;
      if (i === before) fail('expected a space between attributes');
      const name = readName();
      skipSpace();
      if (source[i] !== '=') fail('expected = after an attribute name');
      i += 1;
      skipSpace();
      const quote = source[i];
      if (quote !== '"' && quote !== "'") fail('an attribute value must be quoted');
      const end = source.indexOf(quote!, i + 1);
      if (end < 0) fail('unterminated attribute value');
      const raw = source.slice(i + 1, end);
      if (raw.includes('<')) fail('< in an attribute value');
      if (name in element.attributes) fail(`duplicate attribute ${name}`);
      element.attributes[name] = decode(raw, `attribute ${name}`);
      i = end + 1;
    }
    const selfClosing = source.startsWith('/>', i);
    i += selfClosing ? 2 : 1;
    if (stack.length) stack[stack.length - 1]!.children.push(element);
    else if (root) fail('a second root element');
    else root = element;
    if (!selfClosing) stack.push(element);
  }
  if (stack.length) throw new XmlError(`unclosed <${stack[stack.length - 1]!.name}>`);
  if (!root) throw new XmlError('no root element');
  return root;
}
