import { extname } from 'node:path';

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

const OTHER_TYPES: Readonly<Record<string, string>> = {
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** The MIME type of an image read_file returns by reference instead of inlining, else undefined. */
export function imageMimeType(path: string): string | undefined {
  return IMAGE_TYPES[extname(path).toLowerCase()];
}

export function mimeTypeOf(path: string): string {
  const extension = extname(path).toLowerCase();
  return IMAGE_TYPES[extension] ?? OTHER_TYPES[extension] ?? 'application/octet-stream';
}

/** A NUL byte in the first bytes marks a binary file (the heuristic git and grep use). */
export function looksBinary(head: Uint8Array): boolean {
  return head.includes(0);
}

/** Splits text into lines the way read_file numbers them: `\n` or `\r\n`, no phantom last line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}
