import { Injectable, type CallHandler, type NestInterceptor, type ExecutionContext } from '@nestjs/common';
import type { MulterModuleOptions } from '@nestjs/platform-express';
import { catchError, throwError, type Observable } from 'rxjs';
import { CommonErrors } from '../../../common/errors/index.js';
import { AppConfig } from '../../../config/app-config.js';
import { SKILL_ARCHIVE_LIMITS } from '../archive/skill-archive.js';

/** An upload is read whole into memory (the archive reader works on bytes): at most this much. */
export const skillUploadLimitBytes = (config: AppConfig): number =>
  Math.min(config.http.uploadLimitBytes, SKILL_ARCHIVE_LIMITS.maxUnzippedBytes);

/**
 * multer with its memory storage (no `dest`): the upload never touches the disk before it is parsed, so
 * a refused one leaves no temp file. One file and a few small fields, as on the thread upload route.
 */
export function skillUploadMulterOptions(config: AppConfig): MulterModuleOptions {
  return {
    limits: {
      files: 2,
      fields: 10,
      fieldSize: 4 * 1024,
      fieldNameSize: 100,
      parts: 12,
      headerPairs: 100,
      fileSize: skillUploadLimitBytes(config),
    },
  };
}

/** multer's refusals as the API's errors (bind it outside `FileInterceptor`). */
@Injectable()
export class SkillUploadErrorsInterceptor implements NestInterceptor {
  constructor(private readonly config: AppConfig) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(catchError((error: unknown) => throwError(() => this.translate(error))));
  }

  private translate(error: unknown): unknown {
    const code = (error as { cause?: { code?: string } } | null)?.cause?.code;
    if (code === undefined) return error;
    if (code === 'LIMIT_FILE_SIZE') return CommonErrors.payloadTooLarge(skillUploadLimitBytes(this.config));
    if (!code.startsWith('LIMIT_')) return error;
    const field = (error as { cause?: { field?: string } }).cause?.field ?? 'file';
    return CommonErrors.validationFailed([
      { field, messages: ['an upload carries one file, in the field named "file", and few small fields'] },
    ]);
  }
}
