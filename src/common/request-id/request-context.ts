import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import { requestIdOf } from './request-id.js';

const context = new AsyncLocalStorage<{ requestId: string }>();

/**
 * Makes the request id readable anywhere in the request's async flow (services, the run dispatcher),
 * so what a request starts (a run, its job) can name it. Mounted after the body parsers: their stream
 * callbacks would run outside a context entered before them.
 */
export function requestContextMiddleware(req: Request, _res: Response, next: NextFunction): void {
  context.run({ requestId: requestIdOf(req) }, next);
}

/** The id of the HTTP request being served, or null outside one (worker, reconciler, boot). */
export function currentRequestId(): string | null {
  return context.getStore()?.requestId ?? null;
}
