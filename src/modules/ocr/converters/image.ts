import { symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** English and Simplified Chinese, recognised together. */
export const OCR_LANGUAGES = ['eng', 'chi_sim'] as const;

/** The LSTM models ("best_int") shipped in the @tesseract.js-data packages: no download at run time. */
const trainedData = (language: string): string =>
  join(
    dirname(require.resolve(`@tesseract.js-data/${language}/package.json`)),
    '4.0.0_best_int',
    `${language}.traineddata.gz`,
  );

const HAN = '\\p{Script=Han}\u3000-\u303f\uff00-\uffef';
/** Tesseract puts a space between Chinese characters; Chinese text has none. */
const SPACES_IN_CHINESE = new RegExp(`(?<=[${HAN}]) +(?=[${HAN}])`, 'gu');

export function tidyRecognizedText(text: string): string {
  return text.replace(SPACES_IN_CHINESE, '');
}

/**
 * Recognises the text of an image with tesseract.js (WebAssembly, in its own thread). tesseract.js
 * takes one `langPath` for all languages, so links to the packaged files are gathered in the job's
 * scratch directory; `cacheMethod: 'none'` keeps it from writing a cache into the working directory.
 */
export async function recognizeImage(bytes: Uint8Array, scratchDir: string): Promise<string> {
  const { createWorker, OEM } = await import('tesseract.js');
  for (const language of OCR_LANGUAGES) {
    await symlink(trainedData(language), join(scratchDir, `${language}.traineddata.gz`));
  }
  // tesseract.js reports a failed start only to `errorHandler` (its promise then never settles).
  let failStart: (reason: Error) => void = () => undefined;
  const startFailed = new Promise<never>((_, reject) => (failStart = reject));
  startFailed.catch(() => undefined);
  const starting = createWorker(OCR_LANGUAGES.join('+'), OEM.LSTM_ONLY, {
    langPath: scratchDir,
    gzip: true,
    cacheMethod: 'none',
    logger: () => undefined,
    errorHandler: (error: unknown) => failStart(new Error(String(error))),
  });
  const worker = await Promise.race([starting, startFailed]);
  try {
    const { data } = await worker.recognize(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return tidyRecognizedText(data.text);
  } finally {
    await worker.terminate();
  }
}
