import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { CommonErrors } from '../../../common/errors/index.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { uuidParam } from '../../../common/validation/uuid-param.pipe.js';
import { RunEventStreams } from './run-event-streams.js';
import { RUN_EVENT_TYPES } from './run-event.js';
import { RunsErrorCode } from '../runs/runs.errors.js';

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
  constructor(private readonly streams: RunEventStreams) {}

  @Get()
  @ApiOperation({
    summary: 'Server-sent events of a run: replays after Last-Event-ID (or ?after=), then follows live',
    description:
      'Frames: `id: <seq>`, `event: <type>`, `data: {run_id, seq, type, payload, created_at}`; ends with `done`. ' +
      `Types: ${RUN_EVENT_TYPES.join(', ')} (payloads in docs/api.md "Run events"; \`usage\`, one per model call: ` +
      '{model, input_tokens, output_tokens, cached_tokens}). ' +
      'Heartbeat comments keep the connection open. Disconnecting never cancels the run. ' +
      'At most SSE_MAX_STREAMS_PER_USER streams per user at once (over every API process); one more is 429.',
  })
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false })
  @ApiQuery({ name: 'after', required: false, type: Number })
  @ApiErrors(400, 401, [404, RunsErrorCode.NOT_FOUND], [429, RunsErrorCode.TOO_MANY_STREAMS])
  async stream(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) runId: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Query('after') after: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    await this.streams.serve(user, runId, parseAfter(lastEventId, after), res);
  }
}
