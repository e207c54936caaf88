import { z } from 'zod';
import { OCR_OUTPUT_DIR } from './output-path.js';
import { PREVIEW_CHARS } from './markdown-result.js';

export const OCR_TOOL_NAME = 'ocr_parse_file';

export const ocrParseFileSchema = z.strictObject({
  file_path: z
    .string()
    .min(1)
    .max(4096)
    .describe(
      'The document to parse: an absolute path such as /home/gem/user-data/workdir/<project>/report.pdf, ' +
        'or a path relative to the project workdir',
    ),
  engine: z
    .enum(['local', 'http'])
    .optional()
    .describe(
      'local: parse here (PDF text layers, Office files, OCR of images in English and Simplified Chinese); ' +
        'http: send the file to the configured OCR service (also reads scanned PDFs). Default: the deployment setting',
    ),
});

export type OcrParseFileArgs = z.infer<typeof ocrParseFileSchema>;

export const OCR_TOOL_DESCRIPTION =
  'Convert a PDF, Word (.docx), Excel (.xlsx), PowerPoint (.pptx) or image (PNG, JPEG, WebP, BMP) file in ' +
  `the workspace into Markdown. The full Markdown is written to <workdir>/${OCR_OUTPUT_DIR}/<name>.md ` +
  '(an existing result is never overwritten: <name>-1.md, <name>-2.md, …). The result gives source_path, ' +
  `parsed_path, engine, char_count and the first ${PREVIEW_CHARS} characters as preview; when truncated is ` +
  'true, read the rest from parsed_path with read_file or grep. PDFs are read from their text layer (a ' +
  'scan without one gives ocr.no_text with the local engine); spreadsheets become one table per sheet, ' +
  'slides one section each. Very large files, PDFs with too many pages and huge images are refused.';
