import { stripHiddenHtml } from '../../../src/modules/ocr/converters/hidden-html';
import { htmlToMarkdown, htmlTokens, parseHtml } from '../../../src/modules/ocr/converters/html-markdown';
import { attributesOf } from '../../../src/modules/ocr/converters/xml-text';
import { MAX_LINE_CHARS, normalizeMarkdown } from '../../../src/modules/ocr/markdown-result';

/** The expressions the clean-up used before, kept here to check the linear rewrites against them. */
const OLD = {
  normalize: (text: string) =>
    text
      .replace(/\r\n?/g, '\n')
      .replace(/[ \t\u00a0]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  hidden: (html: string) =>
    html.replace(
      /<(script|style|head|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->|<![^>]*>/gi,
      '',
    ),
  tokens: (html: string) =>
    [...html.matchAll(/<(\/?)([a-zA-Z][\w-]*)([^>]*)>|([^<]+)/g)].map((m) => m.slice(1).join('|')),
  attributes: (tag: string) =>
    [...tag.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)].map((m) => [m[1], m[2] ?? m[3]]),
};

/** Deterministic random strings over a small alphabet of meaningful pieces. */
function samples(pieces: readonly string[], count: number, maxPieces: number): string[] {
  let seed = 42;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  return Array.from({ length: count }, () =>
    Array.from(
      { length: Math.floor(next() * maxPieces) },
      () => pieces[Math.floor(next() * pieces.length)],
    ).join(''),
  );
}

describe('normalizeMarkdown on adversarial input', () => {
  it('strips the blanks around 80k inner spaces without losing the words, lines capped', () => {
    const out = normalizeMarkdown(`x${' '.repeat(80_000)}y\n`);
    expect(out.replace(/\s+/g, '')).toBe('xy');
    expect(out.startsWith('x\n\n')).toBe(true);
    expect(out.split('\n').every((line) => line.length <= MAX_LINE_CHARS)).toBe(true);
  });

  it('breaks a long line of words at a blank and a line without blanks at the limit', () => {
    const words = 'word '.repeat(5000);
    const broken = normalizeMarkdown(words).split('\n');
    expect(broken.every((line) => line.length <= MAX_LINE_CHARS && line.endsWith('word'))).toBe(true);
    expect(broken.join(' ')).toBe(words.trim());
    const solid = normalizeMarkdown('z'.repeat(25_000)).split('\n');
    expect(solid.map((line) => line.length)).toEqual([10_000, 10_000, 5000]);
    const emoji = normalizeMarkdown(`a${'😀'.repeat(6000)}`).split('\n');
    expect(emoji.join('')).toBe(`a${'😀'.repeat(6000)}`);
    expect(emoji.every((line) => !/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(line))).toBe(true);
  });

  it('gives what the old expressions gave on short lines', () => {
    for (const text of samples(['a', ' ', '\t', '\u00a0', '\n', '\r', '\r\n', '#', '\f'], 3000, 14)) {
      expect(normalizeMarkdown(text)).toBe(OLD.normalize(text));
    }
  });
});

describe('stripHiddenHtml', () => {
  it('removes 40k unclosed comment openers and keeps the visible text', () => {
    // As before: an opener that nothing closes stays (the HTML parser then drops its `<`).
    expect(stripHiddenHtml(`<p>a</p>${'<!--'.repeat(40_000)}`)).toBe(`<p>a</p>${'<!--'.repeat(40_000)}`);
    expect(stripHiddenHtml(`${'<!--'.repeat(40_000)}-->b`)).toBe('b');
    expect(stripHiddenHtml(`<p>a</p>${'<script>'.repeat(40_000)}`)).toBe(
      `<p>a</p>${'<script>'.repeat(40_000)}`,
    );
    expect(stripHiddenHtml(`${'<style a'.repeat(40_000)}>b</style>c`)).toBe('c');
  });

  it('removes scripts, styles, the head, comments and the doctype, in any case', () => {
    const page =
      '<!DOCTYPE html><HTML><Head><title>t</title></HEAD><body>a<!-- c -->b<script src=x>s()</script >' +
      'c<STYLE>p{}</style>d<noscript>n</noscript>e<template>t</template>f<scripts>g<!-->h</body>';
    expect(stripHiddenHtml(page)).toBe('<HTML><body>abcdef<scripts>gh</body>');
  });

  it('gives what the old expression gave', () => {
    const pieces = [
      '<',
      '!',
      '-',
      '--',
      '>',
      'script',
      'SCRIPT',
      'style',
      '/',
      ' ',
      'x',
      '<!--',
      '-->',
      '</script>',
      '</style >',
      '<style>',
      '<head>',
      '</head>',
    ];
    for (const html of samples(pieces, 4000, 12)) expect(stripHiddenHtml(html)).toBe(OLD.hidden(html));
  });
});

describe('HTML parsing on adversarial input', () => {
  it('reads 40k `<a` openers that no `>` closes as text', () => {
    expect(htmlToMarkdown(`<p>x</p>${'<a'.repeat(40_000)}`)).toBe(
      ['x', ...Array(40_000).fill('a')].join('\n\n'),
    );
  });

  it('reads a 100k-character name and 40k unclosed quotes in a tag', () => {
    expect(attributesOf(` ${'n'.repeat(100_000)} href="u"`)).toEqual(new Map([['href', 'u']]));
    expect(attributesOf("a='".repeat(40_000))).toEqual(new Map([['a', 'a=']]));
    expect(attributesOf(`b${' '.repeat(100_000)}x="1"`)).toEqual(new Map([['x', '1']]));
    const [link] = parseHtml(`<a title="${'x'.repeat(100_000)}" href="/u">t</a>`);
    expect(typeof link === 'string' ? link : link.attributes.get('href')).toBe('/u');
  });

  it('gives the old tokens and attributes', () => {
    const pieces = ['<', '</', '>', 'a', 'b-1', ' ', '=', '"', "'", 'x:y', '/', '\n'];
    for (const text of samples(pieces, 4000, 12)) {
      const tokens = [...htmlTokens(text)].map((token) =>
        'text' in token
          ? `|||${token.text}`
          : `${token.closing ? '/' : ''}|${token.name}|${token.attributes}|`,
      );
      expect(tokens).toEqual(OLD.tokens(text));
      expect([...attributesOf(text)]).toEqual([...new Map(OLD.attributes(text) as [string, string][])]);
    }
  });
});
