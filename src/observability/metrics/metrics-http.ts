import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import { CommonErrorCode, type DomainError } from '../../common/errors/index.js';
import { ERROR_STATUS } from '../../common/errors/error-status.js';
import { METRICS_AUTHENTICATE_HEADER } from './metrics.errors.js';
import type { MetricsExposition } from './metrics-exposition.js';

const logger = new Logger('MetricsHttp');

/** An error as the plain listeners (worker health, `METRICS_PORT`) answer it: `{code, message, details}`. */
export function sendJsonError(
  res: ServerResponse,
  status: number,
  error: { code: string; message: string; details?: Record<string, unknown> | null },
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify({ code: error.code, message: error.message, details: error.details ?? null });
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

function sendRefusal(res: ServerResponse, refusal: DomainError): void {
  sendJsonError(res, ERROR_STATUS[refusal.kind], refusal, {
    'www-authenticate': METRICS_AUTHENTICATE_HEADER,
  });
}

/**
 * Answers `/metrics` on a plain node listener: GET or HEAD (405 otherwise), the bearer checked when
 * `requireToken`, then the exposition. Never throws.
 */
export async function answerMetrics(
  req: IncomingMessage,
  res: ServerResponse,
  exposition: MetricsExposition,
  options: { requireToken: boolean },
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJsonError(
      res,
      405,
      { code: CommonErrorCode.METHOD_NOT_ALLOWED, message: 'Method not allowed' },
      { allow: 'GET, HEAD' },
    );
    return;
  }
  if (options.requireToken) {
    const refusal = exposition.refusal(req.headers.authorization);
    if (refusal !== null) return sendRefusal(res, refusal);
  }
  try {
    const { contentType, text } = await exposition.render();
    res.writeHead(200, {
      'content-type': contentType,
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : text);
  } catch (error) {
    logger.error({ err: error instanceof Error ? error.message : String(error) }, 'metrics not rendered');
    if (!res.headersSent)
      sendJsonError(res, 500, {
        code: CommonErrorCode.INTERNAL_ERROR,
        message: 'An internal error occurred.',
      });
  }
}

/** The request's path without its query. */
export const pathOf = (req: IncomingMessage): string => (req.url ?? '').split('?')[0];
