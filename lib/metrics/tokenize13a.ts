/**
 * sacreBLEU's default tokenizer `13a` (tokenizer_13a.py + tokenizer_re.py), equivalent to mteval-v13a: unescape
 * the four XML entities, then split off punctuation and symbols, periods and commas unless next to a digit, and a
 * dash after a digit.
 */
const RULES: Array<[RegExp, string]> = [
  // the Python class [\{-\~\[-\` -\&\(-\+\:-\@\/]: { | } ~ [ \ ] ^ _ ` space ! " # $ % & ( ) * + : ; < = > ? @ /
  [/([{-~[-` -&(-+:-@/])/g, ' $1 '],
  [/([^0-9])([.,])/g, '$1 $2 '],
  [/([.,])([^0-9])/g, ' $1 $2'],
  [/([0-9])(-)/g, '$1 $2 '],
];

export function tokenize13a(text: string): string[] {
  let line = text
    .replaceAll('<skipped>', '')
    .replaceAll('-\n', '')
    .replaceAll('\n', ' ')
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>');
  line = ` ${line} `;
  for (const [re, replacement] of RULES) line = line.replace(re, replacement);
  return line
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '');
}
