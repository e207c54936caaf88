import { ForwardSearch } from './forward-search.js';
import { markdownTable } from './markdown-table.js';
import { attributesOf, decodeXmlText } from './xml-text.js';

/** An element of the simple, well-formed HTML mammoth writes, or a run of text. */
type HtmlNode = { tag: string; attributes: Map<string, string>; children: HtmlNode[] } | string;

const VOID_TAGS = new Set(['br', 'img', 'hr']);

const isLetter = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
const isNameChar = (code: number) =>
  isLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2d;

type HtmlToken = { text: string } | { closing: boolean; name: string; attributes: string };

/**
 * The tokens of `/<(\/?)([a-zA-Z][\w-]*)([^>]*)>|([^<]+)/g` in one forward pass (that expression rescans
 * to the end of the text for every `<a` that no `>` follows); a `<` that opens no tag is dropped.
 */
export function* htmlTokens(html: string): Generator<HtmlToken> {
  const tagEnd = new ForwardSearch(html, '>');
  let at = 0;
  while (at < html.length) {
    if (html[at] !== '<') {
      const next = html.indexOf('<', at);
      const end = next === -1 ? html.length : next;
      yield { text: html.slice(at, end) };
      at = end;
      continue;
    }
    const closing = html[at + 1] === '/';
    const nameStart = at + (closing ? 2 : 1);
    const close = isLetter(html.charCodeAt(nameStart)) ? tagEnd.next(nameStart) : -1;
    if (close === -1) {
      at += 1;
      continue;
    }
    let nameEnd = nameStart + 1;
    while (nameEnd < close && isNameChar(html.charCodeAt(nameEnd))) nameEnd += 1;
    yield { closing, name: html.slice(nameStart, nameEnd), attributes: html.slice(nameEnd, close) };
    at = close + 1;
  }
}

/** Parses well-formed HTML into a tree; a stray closing tag is ignored, an unclosed one closes at the end. */
export function parseHtml(html: string): HtmlNode[] {
  const root: HtmlNode = { tag: '#root', attributes: new Map(), children: [] };
  const stack = [root];
  for (const token of htmlTokens(html)) {
    const parent = stack[stack.length - 1];
    if ('text' in token) {
      parent.children.push(decodeXmlText(token.text));
    } else if (token.closing) {
      const name = token.name.toLowerCase();
      const open = stack.findLastIndex((node) => node.tag === name);
      if (open > 0) stack.length = open;
    } else {
      const node = {
        tag: token.name.toLowerCase(),
        attributes: attributesOf(token.attributes),
        children: [],
      };
      parent.children.push(node);
      if (!VOID_TAGS.has(node.tag) && !token.attributes.trimEnd().endsWith('/')) stack.push(node);
    }
  }
  return root.children;
}

function inline(nodes: readonly HtmlNode[]): string {
  return nodes.map(inlineNode).join('');
}

function inlineNode(node: HtmlNode): string {
  if (typeof node === 'string') return node;
  const inner = inline(node.children);
  const wrap = (mark: string) => (inner.trim() === '' ? inner : `${mark}${inner}${mark}`);
  switch (node.tag) {
    case 'strong':
    case 'b':
      return wrap('**');
    case 'em':
    case 'i':
      return wrap('*');
    case 's':
    case 'del':
      return wrap('~~');
    case 'br':
      return '\n';
    case 'img': {
      const alt = node.attributes.get('alt') ?? '';
      return alt === '' ? '' : `[image: ${alt}]`;
    }
    case 'a': {
      const href = node.attributes.get('href') ?? '';
      return href === '' || href.startsWith('#') || inner.trim() === '' ? inner : `[${inner}](${href})`;
    }
    case 'p':
      return `${inner}\n`;
    default:
      return inner;
  }
}

function list(node: Extract<HtmlNode, object>, depth: number): string {
  const items = node.children.filter((child) => typeof child !== 'string' && child.tag === 'li');
  return items
    .map((item, index) => {
      if (typeof item === 'string') return '';
      const nested = item.children.filter((c) => typeof c !== 'string' && (c.tag === 'ul' || c.tag === 'ol'));
      const own = item.children.filter((c) => !nested.includes(c));
      const marker = node.tag === 'ol' ? `${index + 1}.` : '-';
      const text = inline(own).trim().replace(/\n+/g, ' ');
      const children = nested.map((child) => (typeof child === 'string' ? '' : list(child, depth + 1)));
      return [`${'  '.repeat(depth)}${marker} ${text}`, ...children].join('\n');
    })
    .join('\n');
}

function table(node: Extract<HtmlNode, object>): string {
  const rows: string[][] = [];
  const visit = (n: HtmlNode) => {
    if (typeof n === 'string') return;
    if (n.tag === 'tr') {
      rows.push(
        n.children
          .filter((cell) => typeof cell !== 'string' && (cell.tag === 'td' || cell.tag === 'th'))
          .map((cell) => inline(typeof cell === 'string' ? [] : cell.children).trim()),
      );
    } else {
      n.children.forEach(visit);
    }
  };
  node.children.forEach(visit);
  return markdownTable(rows);
}

const BLOCK_TAGS = /^(p|h\d|ul|ol|table)$/;

/**
 * Whether a block element sits anywhere below (pages wrap their blocks in html, body, div, …). Each
 * node's answer is kept, so a deeply nested page costs one pass, not one per level.
 */
const blockHolders = new WeakMap<object, boolean>();
function holdsBlocks(node: Extract<HtmlNode, object>): boolean {
  let holds = blockHolders.get(node);
  if (holds === undefined) {
    holds = node.children.some((c) => typeof c !== 'string' && (BLOCK_TAGS.test(c.tag) || holdsBlocks(c)));
    blockHolders.set(node, holds);
  }
  return holds;
}

/** Block-level HTML to Markdown: headings, paragraphs, nested lists, tables; inline marks kept. */
export function htmlToMarkdown(html: string): string {
  const blocks = (nodes: readonly HtmlNode[]): string[] =>
    nodes.flatMap((node) => {
      if (typeof node === 'string') return node.trim() === '' ? [] : [node];
      const heading = /^h([1-6])$/.exec(node.tag);
      if (heading !== null) return [`${'#'.repeat(Number(heading[1]))} ${inline(node.children).trim()}`];
      switch (node.tag) {
        case 'ul':
        case 'ol':
          return [list(node, 0)];
        case 'table':
          return [table(node)];
        case 'p':
          return [inline(node.children).trim()];
        default:
          return holdsBlocks(node) ? blocks(node.children) : [inline([node]).trim()];
      }
    });
  return blocks(parseHtml(html))
    .filter((block) => block !== '')
    .join('\n\n');
}
