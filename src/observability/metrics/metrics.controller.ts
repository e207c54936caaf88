import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/auth/auth.decorators.js';
import { AuthErrorCode } from '../../common/auth/auth.errors.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { MetricsExposition } from './metrics-exposition.js';
import { MetricsTokenGuard } from './metrics-token.guard.js';

/** The route, outside the `/api` prefix (`create-http-app.ts` excludes it): `GET /metrics`. */
export const METRICS_ROUTE = 'metrics';

/** Mounted only when `METRICS_TOKEN` is set; otherwise `/metrics` is an unknown route (404). */
@ApiTags('Operations')
@Controller()
export class MetricsController {
  constructor(private readonly exposition: MetricsExposition) {}

  @Get(METRICS_ROUTE)
  @Public()
  @UseGuards(MetricsTokenGuard)
  @ApiOperation({
    summary: 'Prometheus metrics of this process (`Authorization: Bearer <METRICS_TOKEN>`, not a JWT)',
    description:
      'The text exposition format: the `yuxi_*` series and the Node process metrics. Served at `/metrics` ' +
      '(no `/api` prefix) only when `METRICS_TOKEN` is set.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text format 0.0.4.', schema: { type: 'string' } })
  @ApiErrors([401, AuthErrorCode.MISSING_CREDENTIALS, AuthErrorCode.INVALID_TOKEN])
  async scrape(@Res({ passthrough: true }) res: Response): Promise<string> {
    const { contentType, text } = await this.exposition.render();
    res.setHeader('content-type', contentType);
    res.setHeader('cache-control', 'no-store');
    return text;
  }
}
