import { Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { DomainError } from '../../common/errors/index.js';
import { AppConfig } from '../../config/app-config.js';
import { MetricsErrors } from './metrics.errors.js';
import { MetricsRegistry } from './metrics-registry.js';

/** The path a scraper asks, on every listener that serves it. */
export const METRICS_PATH = '/metrics';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * `/metrics` as every listener serves it: whether the token is configured (it is served on the main
 * port and the worker's health listener only then), the bearer check, and the text exposition.
 */
@Injectable()
export class MetricsExposition {
  /** Compared as digests: equal lengths, so the comparison takes the same time whatever is sent. */
  private readonly tokenDigest: Buffer | null;

  constructor(
    config: AppConfig,
    private readonly registry: MetricsRegistry,
  ) {
    const token = config.metrics.token;
    this.tokenDigest = token === null ? null : digest(token.reveal());
  }

  /** `METRICS_TOKEN` is set: `/metrics` is served behind it. */
  get protectedRouteEnabled(): boolean {
    return this.tokenDigest !== null;
  }

  /** Null when the `Authorization` header carries the token; otherwise the 401 to answer. */
  refusal(authorization: string | undefined): DomainError | null {
    const match = BEARER.exec(authorization ?? '');
    if (match === null || this.tokenDigest === null) return MetricsErrors.missingToken();
    return timingSafeEqual(digest(match[1]), this.tokenDigest) ? null : MetricsErrors.invalidToken();
  }

  render(): Promise<{ contentType: string; text: string }> {
    return this.registry.render();
  }
}
