import { Injectable } from '@nestjs/common';
import { archiveLimitsOf } from '../archive/archive-limits.js';
import { isImageType } from '../detect-type.js';
import { assertImagePixels } from '../input-caps.js';
import { OcrSettings } from '../ocr-settings.js';
import { ConversionRunner } from '../worker/conversion-runner.js';
import type { OcrEngine, SourceDocument } from './ocr-engine.js';

/**
 * Parses in this process, off the event loop: PDF text layers (pdf.js), Word (mammoth), Excel
 * (read-excel-file), PowerPoint (slide XML) and images (tesseract.js, English and Simplified Chinese,
 * language data from npm packages, nothing fetched).
 */
@Injectable()
export class LocalEngine implements OcrEngine {
  readonly name = 'local';

  constructor(
    private readonly settings: OcrSettings,
    private readonly runner: ConversionRunner,
  ) {}

  unavailableReason(): string | null {
    return null;
  }

  async convert(document: SourceDocument, signal: AbortSignal): Promise<string> {
    if (isImageType(document.type)) assertImagePixels(document.bytes, this.settings.maxImagePixels);
    return await this.runner.run(
      {
        type: document.type,
        bytes: document.bytes,
        maxPdfPages: this.settings.maxPdfPages,
        archiveLimits: archiveLimitsOf(this.settings),
      },
      signal,
    );
  }
}
