import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;
const REQUEST_ID = Symbol('requestId');

type WithRequestId = Request & { [REQUEST_ID]?: string; id?: unknown };

/** Echoes a well-formed caller `X-Request-Id`, otherwise assigns a fresh one; always sets the header. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && ACCEPTABLE.test(given) ? given : randomUUID();
  (req as WithRequestId)[REQUEST_ID] = id;
  (req as WithRequestId).id = id;
  res.setHeader('X-Request-Id', id);
  next();
}

export function requestIdOf(req: Request): string {
  return (req as WithRequestId)[REQUEST_ID] ?? 'unknown';
}
