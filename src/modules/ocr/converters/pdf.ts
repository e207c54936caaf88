import { dirname, join } from 'node:path';
import { OcrErrors } from '../ocr.errors.js';

interface TextPiece {
  str: string;
  hasEOL: boolean;
  transform: number[];
  height: number;
}

const isTextPiece = (item: object): item is TextPiece => 'str' in item;

/** Groups pdf.js text items into lines: an explicit end of line, or a jump in the baseline. */
export function linesOf(items: readonly object[]): string[] {
  const lines: string[] = [];
  let line = '';
  let baseline: number | undefined;
  for (const item of items) {
    if (!isTextPiece(item)) continue;
    const y = item.transform[5];
    if (line !== '' && baseline !== undefined && Math.abs(y - baseline) > Math.max(2, item.height / 2)) {
      lines.push(line);
      line = '';
    }
    line += item.str;
    baseline = y;
    if (item.hasEOL && line !== '') {
      lines.push(line);
      line = '';
    }
  }
  if (line !== '') lines.push(line);
  return lines.map((l) => l.trimEnd());
}

/**
 * The PDF's text layer as Markdown, one `## Page N` section per page that has text. Scans without a
 * text layer give nothing here (the `http` engine can OCR them). Refuses more than `maxPages` pages
 * before reading any page.
 */
export async function convertPdf(bytes: Uint8Array, maxPages: number): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const root = dirname(require.resolve('pdfjs-dist/package.json'));
  const task = pdfjs.getDocument({
    data: bytes,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    // Chinese and Japanese PDFs often map glyphs through predefined CMaps: without them, no text.
    cMapUrl: `${join(root, 'cmaps')}/`,
    cMapPacked: true,
    standardFontDataUrl: `${join(root, 'standard_fonts')}/`,
  });
  let document: Awaited<typeof task.promise>;
  try {
    document = await task.promise;
  } catch (error) {
    const password = (error as Error | null)?.name === 'PasswordException';
    throw OcrErrors.unreadable('PDF', password ? 'it is password-protected' : (error as Error).message);
  }
  try {
    if (document.numPages > maxPages) throw OcrErrors.tooManyPages(document.numPages, maxPages);
    const sections: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const text = linesOf(content.items).join('\n').trim();
      if (text !== '') sections.push(`## Page ${number}\n\n${text}`);
      page.cleanup();
    }
    return sections.join('\n\n');
  } finally {
    await document.destroy();
  }
}
