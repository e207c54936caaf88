import { parentPort, workerData } from 'node:worker_threads';
import { readOfficeParts, repackParts } from '../archive/office-package.js';
import { csvToMarkdown } from '../converters/csv.js';
import { convertDocx } from '../converters/docx.js';
import { stripHiddenHtml } from '../converters/hidden-html.js';
import { htmlToMarkdown } from '../converters/html-markdown.js';
import { recognizeImage } from '../converters/image.js';
import { convertPdf } from '../converters/pdf.js';
import { convertPptx } from '../converters/pptx.js';
import { convertXlsx } from '../converters/xlsx.js';
import { normalizeMarkdown } from '../markdown-result.js';
import { serializeError, type ConversionJob, type ConversionReply } from './conversion-job.js';

/**
 * Worker thread entry: converts the one document in `workerData` and posts a `ConversionReply` with its
 * normalized Markdown. An Office document is inflated here under the limits first; the converters only
 * get those parts. All of it, clean-up included, runs under the runner's time budget.
 */
async function convert(job: ConversionJob): Promise<string> {
  switch (job.type) {
    case 'text':
      return decodeText(job.bytes);
    case 'html':
      return htmlToMarkdown(stripHiddenHtml(decodeText(job.bytes)));
    case 'csv':
      return csvToMarkdown(decodeText(job.bytes));
    case 'pdf':
      return convertPdf(job.bytes, job.maxPdfPages);
    case 'docx':
      return convertDocx(repackParts(readOfficeParts(job.bytes, job.archiveLimits)));
    case 'xlsx':
      return convertXlsx(repackParts(readOfficeParts(job.bytes, job.archiveLimits)));
    case 'pptx':
      return convertPptx(readOfficeParts(job.bytes, job.archiveLimits));
    case 'png':
    case 'jpeg':
    case 'webp':
    case 'bmp':
      return recognizeImage(job.bytes, job.scratchDir);
  }
}

function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
}

const job = workerData as ConversionJob;
const reply = (message: ConversionReply) => parentPort?.postMessage(message);
// Through a promise, so a converter that throws synchronously is reported like one that rejects.
Promise.resolve(job)
  .then(convert)
  .then(
    (markdown) => reply({ ok: true, markdown: normalizeMarkdown(markdown) }),
    (error: unknown) => reply({ ok: false, error: serializeError(error, job.type) }),
  );
