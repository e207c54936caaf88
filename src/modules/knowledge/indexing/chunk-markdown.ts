/**
 * Structure-aware chunking of a parsed document: sections start at headings, chunks grow by whole
 * blocks (paragraphs, lists, tables, fenced code) up to `maxChars`, an oversized block is split at
 * sentence ends, and each chunk after the first of a section repeats the tail of the previous one
 * (`overlapChars`). Every chunk starts with its heading trail (`A > B`), so a passage found alone
 * still says where it belongs.
 */
export interface ChunkOptions {
  maxChars: number;
  overlapChars: number;
}

export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { maxChars: 1000, overlapChars: 150 };

interface Block {
  heading?: { level: number; text: string };
  text: string;
}

const isSpace = (character: string) => /^\s$/.test(character);
const isLineTerminator = (character: string) =>
  character === '\n' || character === '\r' || character === '\u2028' || character === '\u2029';

/**
 * An ATX heading: what `/^(#{1,6})\s+(.*?)\s*#*\s*$/` captures (level, text without the closing `#`s),
 * in one pass: that expression is cubic on a long run of blanks that does not end the line.
 */
export function parseHeading(line: string): { level: number; text: string } | null {
  let level = 0;
  while (line[level] === '#') level += 1;
  if (level === 0 || level > 6 || level === line.length || !isSpace(line[level])) return null;
  let start = level;
  while (start < line.length && isSpace(line[start])) start += 1;
  let end = line.length;
  while (end > start && isSpace(line[end - 1])) end -= 1;
  while (end > start && line[end - 1] === '#') end -= 1;
  while (end > start && isSpace(line[end - 1])) end -= 1;
  for (let i = start; i < end; i += 1) if (isLineTerminator(line[i])) return null;
  return { level, text: line.slice(start, end) };
}
const FENCE = /^\s*(```|~~~)/;

function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  let lines: string[] = [];
  let fence: string | null = null;
  const flush = () => {
    const text = lines.join('\n').trim();
    if (text !== '') blocks.push({ text });
    lines = [];
  };
  for (const line of markdown.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      lines.push(line);
      if (marker === fence) {
        flush();
        fence = null;
      }
      continue;
    }
    if (marker !== undefined) {
      flush();
      fence = marker;
      lines.push(line);
      continue;
    }
    const heading = parseHeading(line);
    if (heading !== null) {
      flush();
      blocks.push({ heading, text: line.trim() });
    } else if (line.trim() === '') flush();
    else lines.push(line);
  }
  flush();
  return blocks;
}

/** After each sentence end (Chinese or English) and line end. */
const SENTENCE_END = /([。！？!?；;]+|\.(?=\s)|\n)/g;

function piecesOf(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const pieces: string[] = [];
  let current = '';
  for (const sentence of text.replace(SENTENCE_END, '$1\u0000').split('\u0000')) {
    for (let start = 0; start < sentence.length; start += maxChars) {
      const part = sentence.slice(start, start + maxChars);
      if (current.length + part.length > maxChars && current.trim() !== '') {
        pieces.push(current.trim());
        current = '';
      }
      current += part;
    }
  }
  if (current.trim() !== '') pieces.push(current.trim());
  return pieces;
}

/** The last `chars` characters, started at a word or sentence boundary when one is near. */
function tailOf(text: string, chars: number): string {
  if (chars <= 0) return '';
  if (text.length <= chars) return text;
  const tail = text.slice(-chars);
  const boundary = tail.search(/[\s。！？!?；;，,]/u);
  return (boundary >= 0 && boundary < chars / 2 ? tail.slice(boundary + 1) : tail).trim();
}

export function chunkMarkdown(markdown: string, options: ChunkOptions = DEFAULT_CHUNK_OPTIONS): string[] {
  const chunks: string[] = [];
  const trail: Array<{ level: number; text: string }> = [];
  let body: string[] = [];
  let bodyChars = 0;
  // Whether the body holds anything beyond the overlap carried from the previous chunk.
  let fresh = false;

  const emit = (carryTail: boolean) => {
    const text = body.join('\n\n').trim();
    if (fresh && text !== '') {
      const headings = trail.map((heading) => heading.text).join(' > ');
      chunks.push(headings === '' ? text : `${headings}\n\n${text}`);
    }
    const tail = carryTail ? tailOf(text, options.overlapChars) : '';
    body = tail === '' ? [] : [tail];
    bodyChars = tail.length;
    fresh = false;
  };

  for (const block of blocksOf(markdown)) {
    if (block.heading !== undefined) {
      emit(false);
      while (trail.length > 0 && trail[trail.length - 1].level >= block.heading.level) trail.pop();
      trail.push(block.heading);
      continue;
    }
    for (const piece of piecesOf(block.text, options.maxChars - options.overlapChars)) {
      if (fresh && bodyChars + piece.length > options.maxChars) emit(true);
      body.push(piece);
      bodyChars += piece.length + 2;
      fresh = true;
    }
  }
  emit(false);
  // A document of headings only still has something to find.
  if (chunks.length === 0 && markdown.trim() !== '') chunks.push(markdown.trim());
  return chunks;
}
