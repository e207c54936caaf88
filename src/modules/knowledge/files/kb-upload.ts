import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { MulterModuleOptions } from '@nestjs/platform-express';
import type { Observable } from 'rxjs';
import { CommonErrors } from '../../../common/errors/index.js';
import { withTempUploadCleanup, type MulterFailure } from '../../../common/http/upload-temp-cleanup.js';
import { AppConfig } from '../../../config/app-config.js';
import { uploadTempDir } from '../../workspace/index.js';

/** What multer's disk storage hands over (the fields used here): the body's file, complete, in a temp file. */
export interface UploadedTempFile {
  originalname: string;
  path: string;
  size: number;
}

/**
 * One file (up to KB_FILE_LIMIT_BYTES, streamed to `<DATA_DIR>/tmp/uploads`, the filesystem the
 * originals are stored on) and a few small fields, as on the thread upload route.
 */
export function kbUploadMulterOptions(config: AppConfig): MulterModuleOptions {
  return {
    dest: uploadTempDir(config.dataDir),
    limits: {
      files: 2,
      fields: 10,
      fieldSize: 4 * 1024,
      fieldNameSize: 100,
      parts: 12,
      headerPairs: 100,
      fileSize: config.http.kbFileLimitBytes,
    },
  };
}

/**
 * Bind it outside `FileInterceptor`: multer's refusals become the API's errors (a file over the cap →
 * 413), and the temp file is removed once the request is over, whatever happened after multer stored it.
 */
@Injectable()
export class KbUploadInterceptor implements NestInterceptor {
  constructor(private readonly config: AppConfig) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return withTempUploadCleanup(context, next, (error, cause) => this.translate(error, cause));
  }

  private translate(error: unknown, cause: MulterFailure | undefined): unknown {
    const code = cause?.code;
    if (code === undefined) return error;
    if (code === 'LIMIT_FILE_SIZE') return CommonErrors.payloadTooLarge(this.config.http.kbFileLimitBytes);
    if (!code.startsWith('LIMIT_')) return error;
    return CommonErrors.validationFailed([
      {
        field: cause?.field ?? 'file',
        messages: ['an upload carries one file, in the field named "file", and few small fields'],
      },
    ]);
  }
}
