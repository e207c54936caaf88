import type { AppConfig } from '../../config/app-config.js';

/** `local`: parse in this process (worker threads); `http`: an external OCR service; `disable`: tool off. */
export type OcrEngineSetting = AppConfig['ocr']['defaultEngine'];

const MB = 1024 * 1024;

/** The OCR part of the configuration (the OCR_* variables, documented in .env.example). */
export type OcrConfig = AppConfig['ocr'];

export const OCR_DEFAULTS: OcrConfig = {
  defaultEngine: 'local',
  httpUrl: null,
  httpApiKey: null,
  httpTimeoutMs: 120_000,
  httpMaxResponseBytes: 20 * MB,
  maxFileBytes: 50 * MB,
  maxPdfPages: 200,
  maxImagePixels: 40_000_000,
  maxUnzippedBytes: 512 * MB,
  maxConcurrency: 2,
  workerMemoryMb: 1024,
  workerTimeoutMs: 300_000,
};

/** OCR settings as a provider: `AppConfig.ocr` (the OCR_* variables), over the defaults for tests. */
// The interface gives the class the fields of OcrConfig, which the constructor assigns.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface OcrSettings extends OcrConfig {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class OcrSettings {
  constructor(values: Partial<OcrConfig> = {}) {
    const given = Object.entries(values).filter(([, value]) => value !== undefined);
    Object.assign(this, OCR_DEFAULTS, Object.fromEntries(given));
  }

  static fromConfig(config: AppConfig): OcrSettings {
    return new OcrSettings(config.ocr);
  }
}
