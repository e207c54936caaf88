import { parentPort, workerData } from 'node:worker_threads';
import { readOfficeParts, repackParts } from '../archive/office-package.js';
import { convertDocx } from '../converters/docx.js';
import { recognizeImage } from '../converters/image.js';
import { convertPdf } from '../converters/pdf.js';
import { convertPptx } from '../converters/pptx.js';
import { convertXlsx } from '../converters/xlsx.js';
import { serializeError, type ConversionJob, type ConversionReply } from './conversion-job.js';

/**
 * Worker thread entry: converts the one document in `workerData` and posts a `ConversionReply`. An
 * Office document is inflated here under the limits first; the converters only get those parts.
 */
function convert(job: ConversionJob): Promise<string> {
  switch (job.type) {
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

const job = workerData as ConversionJob;
const reply = (message: ConversionReply) => parentPort?.postMessage(message);
// Through a promise, so a converter that throws synchronously is reported like one that rejects.
Promise.resolve(job)
  .then(convert)
  .then(
    (markdown) => reply({ ok: true, markdown }),
    (error: unknown) => reply({ ok: false, error: serializeError(error, job.type) }),
  );
