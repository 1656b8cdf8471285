import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeMarkdown, escapeXmlAttribute, escapeXmlText, jsonForScript, truncateText } from './escape.js';
import { parseXml } from './testing/xmlTree.test-helpers.js';

describe('escaping user data', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    [`a & "b" 'c'`, 'a &amp; &quot;b&quot; &#39;c&#39;'],
    ['plain', 'plain'],
    ['ctrl \u0001 lone \uD800', 'ctrl \\u0001 lone \uFFFD'],
  ])('escapeHtml(%j)', (input, expected) => {
    expect(escapeHtml(input)).toBe(expected);
  });

  it.each([
    [']]>', ']]&gt;'],
    ['a < b && c > d', 'a &lt; b &amp;&amp; c &gt; d'],
    ['bell \u0007 nul \u0000 vt \u000B ff \u000C esc \u001B', 'bell \\u0007 nul \\u0000 vt \\u000b ff \\u000c esc \\u001b'],
    ['tab\tlf\ncr\r kept', 'tab\tlf\ncr\r kept'],
    ['lone \uD800 high, lone \uDC00 low, pair \uD83D\uDE00', 'lone \uFFFD high, lone \uFFFD low, pair \uD83D\uDE00'],
    ['\uFFFE\uFFFF', '\\ufffe\\uffff'],
  ])('escapeXmlText(%j)', (input, expected) => {
    expect(escapeXmlText(input)).toBe(expected);
  });

  it('XML text and attributes round-trip through a strict parser, line breaks in attributes included', () => {
    const value = 'x ]]> <y> & "z"\n\tw\r';
    const root = parseXml(`<a v="${escapeXmlAttribute(value)}">${escapeXmlText(value)}</a>`);
    expect(root).toEqual({ name: 'a', attributes: { v: value }, children: [], text: value });
  });

  it.each([
    ['a | b', 'a \\| b'],
    ['<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
    [
      '**bold** _it_ `code` [link](http://x) #1 ~s~ ![i](x)',
      '\\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\[link\\](http://x) \\#1 \\~s\\~ \\!\\[i\\](x)',
    ],
    ['two\nlines\r\nthree', 'two lines three'],
    ['back\\slash', 'back\\\\slash'],
    ['<!-- evalplatform-report -->', '&lt;\\!-- evalplatform-report --&gt;'],
  ])('escapeMarkdown(%j)', (input, expected) => {
    expect(escapeMarkdown(input)).toBe(expected);
  });

  it('jsonForScript cannot close its script element and parses back to the same value', () => {
    const value = { q: '</script><script>x()</script> <!-- & \u2028' };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it.each([
    ['short', 10, 'short'],
    ['0123456789abc', 10, '012345678…'],
    ['12345678\uD83D\uDE00xyz', 10, '12345678…'],
  ])('truncateText(%j, %i)', (input, max, expected) => {
    expect(truncateText(input, max)).toBe(expected);
  });
});
