import { imageSize } from 'image-size';
import { OcrErrors } from './ocr.errors.js';

/** Refuses a source file over the byte limit (checked on its size before it is read). */
export function assertFileSize(path: string, sizeBytes: number, limitBytes: number): void {
  if (sizeBytes > limitBytes) throw OcrErrors.fileTooLarge(path, sizeBytes, limitBytes);
}

/**
 * Reads an image's dimensions from its header, without decoding it, and refuses one over the pixel
 * limit: a small file can declare a huge canvas that would exhaust memory once decoded.
 */
export function assertImagePixels(bytes: Uint8Array, limitPixels: number): { width: number; height: number } {
  let size: { width: number; height: number };
  try {
    size = imageSize(bytes);
  } catch (error) {
    throw OcrErrors.unreadable('image', error instanceof Error ? error.message : 'no readable header');
  }
  const { width, height } = size;
  if (!(width > 0 && height > 0)) throw OcrErrors.unreadable('image', 'it declares no dimensions');
  if (width * height > limitPixels) throw OcrErrors.imageTooLarge(width, height, limitPixels);
  return { width, height };
}
