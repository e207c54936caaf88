import type { Response } from 'express';
import type { DomainError } from './domain-error.js';
import { ERROR_STATUS } from './error-status.js';

export interface ErrorEnvelope {
  status_code: number;
  code: string;
  message: string;
  details: Record<string, unknown> | null;
  request_id: string;
}

export function buildErrorEnvelope(error: DomainError, requestId: string): ErrorEnvelope {
  const status = ERROR_STATUS[error.kind];
  return {
    status_code: status,
    code: error.code,
    message: error.message,
    details: error.details ?? null,
    request_id: requestId,
  };
}

/** Writes the envelope; does nothing once headers are out (an SSE stream that already started). */
export function sendErrorResponse(res: Response, error: DomainError, requestId: string): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  const envelope = buildErrorEnvelope(error, requestId);
  if (error.retryAfterSeconds !== undefined) {
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
  }
  res.status(envelope.status_code).json(envelope);
}
