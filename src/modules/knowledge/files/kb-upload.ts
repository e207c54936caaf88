import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { MulterModuleOptions } from '@nestjs/platform-express';
import type { Request } from 'express';
import { unlink } from 'node:fs/promises';
import { catchError, finalize, from, mergeMap, throwError, type Observable } from 'rxjs';
import { CommonErrors } from '../../../common/errors/common.errors.js';
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
    const req = context.switchToHttp().getRequest<Request & { file?: { path?: string } }>();
    const removeTemp = async () => {
      const path = req.file?.path;
      if (path !== undefined) await unlink(path).catch(() => undefined);
    };
    return next.handle().pipe(
      catchError((error: unknown) =>
        from(removeTemp()).pipe(mergeMap(() => throwError(() => this.translate(error)))),
      ),
      // The success path has moved it already; this only covers what would otherwise be left behind.
      finalize(() => void removeTemp()),
    );
  }

  private translate(error: unknown): unknown {
    const cause = (error as { cause?: { code?: string; field?: string } } | null)?.cause;
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
