import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/auth/auth.decorators.js';
import { HealthDto, LivenessDto, ReadinessDto } from './health-dto.js';
import { HealthService, type HealthReport } from './health.service.js';
import { ReadinessService, type ReadinessReport } from './readiness.service.js';

@ApiTags('Operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthService,
    private readonly readiness: ReadinessService,
  ) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Liveness and dependency checks (no auth)' })
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({ type: HealthDto, description: 'PostgreSQL or Redis is down.' })
  async check(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const report = await this.health.check();
    res.status(report.status === 'ok' ? 200 : 503);
    return report;
  }

  @Get('live')
  @Public()
  @ApiOperation({ summary: 'Liveness: the process answers (no dependency checks, no auth)' })
  @ApiOkResponse({ type: LivenessDto })
  live(): LivenessDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  @ApiOperation({
    summary: 'Readiness: PostgreSQL, Redis and the queue consumers are up, not shutting down (no auth)',
  })
  @ApiOkResponse({ type: ReadinessDto })
  @ApiServiceUnavailableResponse({
    type: ReadinessDto,
    description: 'Starting, draining after a stop signal, or a dependency down.',
  })
  async ready(@Res({ passthrough: true }) res: Response): Promise<ReadinessReport> {
    const report = await this.readiness.check();
    res.status(report.status === 'ok' ? 200 : 503);
    return report;
  }
}
