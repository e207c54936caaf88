import { Injectable, type CallHandler, type NestInterceptor, type ExecutionContext } from '@nestjs/common';
import type { MulterModuleOptions } from '@nestjs/platform-express';
import type { Observable } from 'rxjs';
import { CommonErrors } from '../../../common/errors/index.js';
import { withTempUploadCleanup, type MulterFailure } from '../../../common/http/upload-temp-cleanup.js';
import { AppConfig } from '../../../config/app-config.js';
import { uploadTempDir } from '../../workspace/index.js';
import { SKILL_ARCHIVE_LIMITS } from '../archive/skill-archive.js';

/** An upload may be at most this large (the upload limit, and never more than a whole skill may inflate to). */
export const skillUploadLimitBytes = (config: AppConfig): number =>
  Math.min(config.http.uploadLimitBytes, SKILL_ARCHIVE_LIMITS.maxUnzippedBytes);

/** What multer's disk storage hands over (the fields used here): the body's file, complete, in a temp file. */
export interface UploadedTempFile {
  path: string;
  size: number;
}

/**
 * multer with its disk storage: the body streams to `<DATA_DIR>/tmp/uploads` (the filesystem drafts are
 * kept on, so a draft moves it in) instead of memory. One file and a few small fields, as on the thread
 * upload route.
 */
export function skillUploadMulterOptions(config: AppConfig): MulterModuleOptions {
  return {
    dest: uploadTempDir(config.dataDir),
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

/**
 * Bind it outside `FileInterceptor`: multer's refusals become the API's errors, and the temp file is
 * removed once the request is over, whatever happened (a draft moved it already when it was stored).
 */
@Injectable()
export class SkillUploadInterceptor implements NestInterceptor {
  constructor(private readonly config: AppConfig) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return withTempUploadCleanup(context, next, (error, cause) => this.translate(error, cause));
  }

  private translate(error: unknown, cause: MulterFailure | undefined): unknown {
    const code = cause?.code;
    if (code === undefined) return error;
    if (code === 'LIMIT_FILE_SIZE') return CommonErrors.payloadTooLarge(skillUploadLimitBytes(this.config));
    if (!code.startsWith('LIMIT_')) return error;
    return CommonErrors.validationFailed([
      {
        field: cause?.field ?? 'file',
        messages: ['an upload carries one file, in the field named "file", and few small fields'],
      },
    ]);
  }
}
