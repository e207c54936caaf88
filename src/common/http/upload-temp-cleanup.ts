import type { CallHandler, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { unlink } from 'node:fs/promises';
import { catchError, finalize, from, mergeMap, throwError, type Observable } from 'rxjs';

/** What multer puts on the `cause` of the exception Nest raises for it. */
export interface MulterFailure {
  code?: string;
  field?: string;
}

/**
 * The body of an interceptor bound outside multer's `FileInterceptor`: the temp file multer stored is
 * removed once the request is over, whatever happened after (a refused quota, a failed move, any
 * exception), and an error is answered only after it is gone, translated by `translate` (multer's
 * refusals into the API's errors). multer itself removes what it stored when it fails.
 */
export function withTempUploadCleanup(
  context: ExecutionContext,
  next: CallHandler,
  translate: (error: unknown, cause: MulterFailure | undefined) => unknown,
): Observable<unknown> {
  const req = context.switchToHttp().getRequest<Request & { file?: { path?: string } }>();
  const removeTemp = async () => {
    const path = req.file?.path;
    if (path !== undefined) await unlink(path).catch(() => undefined);
  };
  return next.handle().pipe(
    catchError((error: unknown) => {
      const cause = (error as { cause?: MulterFailure } | null)?.cause;
      return from(removeTemp()).pipe(mergeMap(() => throwError(() => translate(error, cause))));
    }),
    // The success path has moved it already; this only covers what would otherwise be left behind.
    finalize(() => void removeTemp()),
  );
}
