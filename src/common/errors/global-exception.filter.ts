import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { requestIdOf } from '../request-id/request-id.js';
import { sendErrorResponse } from './error-response.js';
import { ERROR_STATUS } from './error-status.js';
import { toDomainError } from './to-domain-error.js';

/** Every error a request can raise becomes the API envelope; 5xx bodies never carry internals. */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const error = toDomainError(exception);
    const status = ERROR_STATUS[error.kind];
    if (status >= 500) {
      this.logger.error(
        { err: exception, code: error.code, method: req.method, path: req.path },
        'request failed',
      );
    }
    sendErrorResponse(res, error, requestIdOf(req));
  }
}
