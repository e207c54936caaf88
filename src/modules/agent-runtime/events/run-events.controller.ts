import { Controller, Get, Headers, Logger, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { CommonErrors } from '../../../common/errors/common.errors.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { AppConfig } from '../../../config/app-config.js';
import { RunsRepository } from '../runs/runs.repository.js';
import { RunsService } from '../runs/runs.service.js';
import { isTerminal } from '../runs/run-status.js';
import { RunEventBus } from './run-event-bus.js';
import { RunEventFollower } from './run-event-follower.js';
import { RunEventStore } from './run-event-store.js';
import type { RunEvent } from './run-event.js';
import { uuidParam } from '../../../common/validation/uuid-param.pipe.js';

const frame = (event: RunEvent) =>
  `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

function parseAfter(header: string | undefined, query: string | undefined): number {
  const raw = header ?? query;
  if (raw === undefined || raw === '') return 0;
  if (!/^\d{1,9}$/.test(raw.trim()))
    throw CommonErrors.validationFailed([
      { field: header === undefined ? 'after' : 'Last-Event-ID', messages: ['must be a sequence number'] },
    ]);
  return Number(raw.trim());
}

@ApiTags('Runs')
@ApiBearerAuth()
@Controller('runs/:id/events')
export class RunEventsController {
  private readonly logger = new Logger(RunEventsController.name);
  constructor(
    private readonly runsService: RunsService,
    private readonly runs: RunsRepository,
    private readonly store: RunEventStore,
    private readonly bus: RunEventBus,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Server-sent events of a run: replays after Last-Event-ID (or ?after=), then follows live',
    description:
      'Frames: `id: <seq>`, `event: <type>`, `data: {run_id, seq, type, payload, created_at}`; ends with `done`. ' +
      'Heartbeat comments keep the connection open. Disconnecting never cancels the run.',
  })
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false })
  @ApiQuery({ name: 'after', required: false, type: Number })
  @ApiErrors(400, 401, [404, 'runs.not_found'])
  async stream(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) runId: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Query('after') after: string | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const afterSeq = parseAfter(lastEventId, after);
    await this.runsService.getOwned(user, runId);

    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    const heartbeat = setInterval(() => {
      res.write(': heartbeat\n\n');
      follower.checkEnded();
    }, this.config.runtime.sseHeartbeatSeconds * 1000);
    const follower = new RunEventFollower(
      runId,
      afterSeq,
      this.store,
      this.bus,
      {
        send: (event) => res.write(frame(event)),
        end: () => {
          clearInterval(heartbeat);
          res.end();
        },
        failed: (error) =>
          this.logger.warn({ run_id: runId, err: (error as Error).message }, 'run event stream failed'),
      },
      async () => {
        const run = await this.runs.findById(runId);
        return run === null || isTerminal(run.status);
      },
    );
    // The client going away only stops this stream; the run goes on.
    req.on('close', () => {
      clearInterval(heartbeat);
      follower.close();
    });
    await follower.start().catch((error: Error) => {
      // Headers are sent: end the stream; the client reconnects with its last event id.
      this.logger.warn({ run_id: runId, err: error.message }, 'run event stream could not start');
      clearInterval(heartbeat);
      follower.close();
      res.end();
    });
  }
}
