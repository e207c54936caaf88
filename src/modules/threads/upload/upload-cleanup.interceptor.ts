import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { CommonErrors } from '../../../common/errors/index.js';
import { withTempUploadCleanup, type MulterFailure } from '../../../common/http/upload-temp-cleanup.js';
import { AppConfig } from '../../../config/app-config.js';
import { ThreadsErrors, type UploadFormLimit } from '../threads.errors.js';
import { UPLOAD_FORM_LIMITS } from './upload-limits.js';

const FORM_LIMITS: Record<string, [UploadFormLimit, number]> = {
  LIMIT_FIELD_COUNT: ['fields', UPLOAD_FORM_LIMITS.fields],
  LIMIT_FIELD_VALUE: ['field_size', UPLOAD_FORM_LIMITS.fieldSize],
  LIMIT_FIELD_KEY: ['field_name_size', UPLOAD_FORM_LIMITS.fieldNameSize],
  LIMIT_PART_COUNT: ['parts', UPLOAD_FORM_LIMITS.parts],
};

/**
 * Wraps multer's `FileInterceptor` (bind it first, so it is the outer one): removes the temp file once
 * the request is over and turns multer's refusals into the thread routes' errors.
 */
@Injectable()
export class UploadCleanupInterceptor implements NestInterceptor {
  constructor(private readonly config: AppConfig) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return withTempUploadCleanup(context, next, (error, cause) => this.translate(error, cause));
  }

  private translate(error: unknown, cause: MulterFailure | undefined): unknown {
    const code = cause?.code;
    if (code === undefined) return error;
    if (code === 'LIMIT_FILE_SIZE') return CommonErrors.payloadTooLarge(this.config.http.uploadLimitBytes);
    if (code === 'LIMIT_UNEXPECTED_FILE' || code === 'LIMIT_FILE_COUNT') {
      return ThreadsErrors.unexpectedFile(cause?.field ?? 'file');
    }
    const limit = FORM_LIMITS[code];
    return limit === undefined ? error : ThreadsErrors.uploadFormTooLarge(...limit);
  }
}
