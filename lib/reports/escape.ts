/*
 * Escaping for every report format. Questions, answers and messages are user data: they may hold markup, XML
 * terminators (`]]>`), control characters or lone surrogates, and must come out as inert text.
 */

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * JSON to embed inside `<script type="application/json">`: `<`, `>`, `&` and the JS line separators become
 * `\uXXXX` escapes, so no `</script>` or `<!--` can appear in the element's text, whatever the data holds.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Characters XML 1.0 cannot carry at all (not even as character references): C0 controls other than tab, LF and
 * CR, U+FFFE/U+FFFF, and unpaired surrogates.
 */
const XML_FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- these are exactly the characters XML forbids
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function visibleEscape(c: string): string {
  const code = c.charCodeAt(0);
  // a lone surrogate becomes the replacement character; a control character stays readable as \uXXXX
  return code >= 0xd800 && code <= 0xdfff ? '\uFFFD' : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Text or attribute value for HTML (both quote styles escaped; control characters and lone surrogates made visible). */
export function escapeHtml(text: string): string {
  return text.replace(XML_FORBIDDEN, visibleEscape).replace(/[&<>"']/g, (c) => HTML[c]!);
}

/** Text content of an XML element: forbidden characters made visible, markup escaped (so `]]>` is harmless). */
export function escapeXmlText(text: string): string {
  return text.replace(XML_FORBIDDEN, visibleEscape).replace(/[&<>]/g, (c) => HTML[c]!);
}

/** An XML attribute value in double quotes; tab, LF and CR as character references so parsers keep them. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/["\t\n\r]/g, (c) => (c === '"' ? '&quot;' : `&#${c.charCodeAt(0)};`));
}

/**
 * Inline Markdown text (GitHub flavoured), e.g. a table cell: one line, markup and Markdown syntax neutralised.
 * HTML-significant characters become entities (GitHub renders them literally), Markdown punctuation is
 * backslash-escaped, `|` is escaped so it cannot split a table cell, and line breaks become spaces.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(XML_FORBIDDEN, visibleEscape)
    .replace(/\r\n|[\r\n\u2028\u2029]/g, ' ')
    .replace(/[&<>]/g, (c) => HTML[c]!)
    .replace(/[\\`*_[\]|#~!]/g, (c) => `\\${c}`);
}

/** Shortens text to `max` characters (an ellipsis marks the cut), never splitting a surrogate pair. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - 1);
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut)}…`;
}
