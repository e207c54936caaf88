import { htmlToMarkdown } from './html-markdown.js';

/**
 * A Word document as Markdown: mammoth maps it to simple semantic HTML (headings, lists, tables,
 * bold, italic, links), which becomes Markdown here. Image bytes are never read; images keep their
 * alt text only.
 */
export async function convertDocx(bytes: Uint8Array): Promise<string> {
  const { default: mammoth } = await import('mammoth');
  const { value } = await mammoth.convertToHtml(
    { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
    { convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })) },
  );
  return htmlToMarkdown(value);
}
