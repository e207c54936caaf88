import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { unlink } from 'node:fs/promises';
import { catchError, finalize, from, mergeMap, throwError, type Observable } from 'rxjs';
import { CommonErrors } from '../../../common/errors/common.errors.js';
import { AppConfig } from '../../../config/app-config.js';
import { ThreadsErrors, type UploadFormLimit } from '../threads.errors.js';
import { UPLOAD_FORM_LIMITS } from './upload-limits.js';

/** What multer puts on the `cause` of the exception Nest raises for it. */
interface MulterFailure {
  code?: string;
  field?: string;
}

const FORM_LIMITS: Record<string, [UploadFormLimit, number]> = {
  LIMIT_FIELD_COUNT: ['fields', UPLOAD_FORM_LIMITS.fields],
  LIMIT_FIELD_VALUE: ['field_size', UPLOAD_FORM_LIMITS.fieldSize],
  LIMIT_FIELD_KEY: ['field_name_size', UPLOAD_FORM_LIMITS.fieldNameSize],
  LIMIT_PART_COUNT: ['parts', UPLOAD_FORM_LIMITS.parts],
};

/**
 * Wraps multer's `FileInterceptor` (bind it first, so it is the outer one): turns multer's refusals into
 * the API's errors, and removes the temp file once the request is over, whatever happened after multer
 * stored it (a refused quota, a failed move, any exception). multer itself removes what it stored when
 * it fails (a limit, a bad part, an aborted client).
 */
@Injectable()
export class UploadCleanupInterceptor implements NestInterceptor {
  constructor(private readonly config: AppConfig) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request & { file?: { path?: string } }>();
    const removeTemp = async () => {
      const path = req.file?.path;
      if (path !== undefined) await unlink(path).catch(() => undefined);
    };
    return next.handle().pipe(
      // Removed before the error is answered, so a client never sees a response while it still exists.
      catchError((error: unknown) =>
        from(removeTemp()).pipe(mergeMap(() => throwError(() => this.translate(error)))),
      ),
      // The success path has moved it already; this only covers what would otherwise be left behind.
      finalize(() => void removeTemp()),
    );
  }

  private translate(error: unknown): unknown {
    const cause = (error as { cause?: MulterFailure } | null)?.cause;
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
