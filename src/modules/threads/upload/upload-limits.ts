import type { MulterModuleOptions } from '@nestjs/platform-express';
import type { AppConfig } from '../../../config/app-config.js';
import type { QuotaCountedUploadStorage } from '../../workspace/index.js';

/**
 * What one upload request may carry: one file (up to UPLOAD_LIMIT_BYTES) and a handful of small text
 * fields. multer's defaults (1,000 fields of 1 MB) would let a request hold a gigabyte in memory.
 */
export const UPLOAD_FORM_LIMITS = {
  // One file is accepted (FileInterceptor('file')); busboy may announce a second so that multer refuses
  // it by its field name (400 naming the field) before storing a byte of it.
  files: 2,
  fields: 10,
  fieldSize: 4 * 1024,
  fieldNameSize: 100,
  // fields + files already bound it; this catches parts busboy counts as neither.
  parts: 12,
  headerPairs: 100,
} as const;

/**
 * The file streams to a random name in `<DATA_DIR>/tmp/uploads`, on the same filesystem as the workdirs,
 * counted against the workspace quota as it arrives.
 */
export function uploadMulterOptions(
  config: AppConfig,
  storage: QuotaCountedUploadStorage,
): MulterModuleOptions {
  return {
    storage,
    limits: { ...UPLOAD_FORM_LIMITS, fileSize: config.http.uploadLimitBytes },
  };
}
