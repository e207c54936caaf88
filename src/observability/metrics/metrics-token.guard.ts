import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MetricsExposition } from './metrics-exposition.js';
import { METRICS_AUTHENTICATE_HEADER } from './metrics.errors.js';

/** `METRICS_TOKEN` as the bearer (the route is `@Public()`: no JWT or API key is asked for or accepted). */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  constructor(private readonly exposition: MetricsExposition) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const refusal = this.exposition.refusal(http.getRequest<Request>().headers.authorization);
    if (refusal === null) return true;
    http.getResponse<Response>().setHeader('WWW-Authenticate', METRICS_AUTHENTICATE_HEADER);
    throw refusal;
  }
}
