import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { RequestIdField } from '../../../common/idempotency/request-id.field.js';
import { RUN_STATUSES, type RunStatus } from '../runs/run-status.js';
import type { RunEntity, RunError, TokenUsage } from '../runs/run.entity.js';
import { WhenPresent } from '../../../common/validation/when-present.js';

export const MAX_INPUT_CHARS = 100_000;

export class CreateRunDto {
  @ApiProperty({ description: 'The user message.', example: 'Summarise the uploaded report.' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_INPUT_CHARS)
  input: string;

  @ApiPropertyOptional({
    enum: ['enqueue', 'reject'],
    default: 'enqueue',
    description: 'On a busy thread: wait in line (FIFO) or refuse with 409 runs.thread_busy.',
  })
  @WhenPresent()
  @IsIn(['enqueue', 'reject'])
  queue_policy?: 'enqueue' | 'reject';

  @ApiPropertyOptional({ description: "Model for this run instead of the agent's." })
  @WhenPresent()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  model?: string;

  @RequestIdField()
  request_id?: string;
}

export class RunAcceptedDto {
  @ApiProperty() run_id: string;
  @ApiProperty({ enum: RUN_STATUSES }) status: RunStatus;
  @ApiProperty({ description: 'Active runs ahead of this one on the thread (0 = starts now).' })
  queue_position: number;
  @ApiProperty({ example: '/api/runs/…/events' }) stream_url: string;
}

export class RunErrorDto {
  @ApiProperty() code: string;
  @ApiProperty() message: string;
}

export class TokenUsageDto {
  @ApiProperty() input_tokens: number;
  @ApiProperty() output_tokens: number;
  @ApiProperty({ description: 'input_tokens + output_tokens' }) total_tokens: number;
  @ApiProperty({
    description: 'Input tokens the provider read from its prompt cache (part of input_tokens).',
  })
  cached_tokens: number;
}

export class RunDto {
  @ApiProperty() id: string;
  @ApiProperty() thread_id: string;
  @ApiProperty() agent_slug: string;
  @ApiProperty({ enum: RUN_STATUSES }) status: RunStatus;
  @ApiPropertyOptional({ type: RunErrorDto }) error?: RunError;
  @ApiProperty() created_at: string;
  @ApiProperty({ nullable: true, type: String }) started_at: string | null;
  @ApiProperty({ nullable: true, type: String }) finished_at: string | null;
  @ApiProperty({
    type: TokenUsageDto,
    description: "The run's own model calls summed (its subagent runs apart).",
  })
  token_usage: TokenUsage;

  /** `usage`: the run's agent calls summed (`UsageReports.runTotals`). */
  static from(run: RunEntity, usage: TokenUsage): RunDto {
    return {
      id: run.id,
      thread_id: run.threadId,
      agent_slug: run.agentSlug,
      status: run.status,
      ...(run.error === null ? {} : { error: { code: run.error.code, message: run.error.message } }),
      created_at: run.createdAt.toISOString(),
      started_at: run.startedAt?.toISOString() ?? null,
      finished_at: run.finishedAt?.toISOString() ?? null,
      token_usage: usage,
    };
  }
}
