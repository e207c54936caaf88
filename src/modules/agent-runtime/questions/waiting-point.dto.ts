import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import { RequestIdField } from '../../../common/idempotency/request-id.field.js';
import {
  WAITING_POINT_KIND,
  type WaitingPointEntity,
  type WaitingPointKind,
  type WaitingPointStatus,
} from './waiting-point.entity.js';

export class SubmitAnswersDto {
  @ApiProperty({
    description: 'Answers keyed by question_id: a string, or an array of values for a multi-select question.',
    example: { 'q-1': 'Engineers', format: 'markdown' },
    type: 'object',
    additionalProperties: true,
  })
  @IsObject()
  answers: Record<string, unknown>;

  @RequestIdField()
  request_id?: string;
}

export class WaitingPointDto {
  @ApiProperty() id: string;
  @ApiProperty() run_id: string;
  @ApiProperty({ enum: [WAITING_POINT_KIND], description: 'What the run waits for: answers to questions.' })
  kind: WaitingPointKind;
  @ApiProperty() tool_call_id: string;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  questions: unknown[];
  @ApiProperty({ enum: ['open', 'answered', 'cancelled'] }) status: WaitingPointStatus;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) answers?: Record<string, unknown>;
  @ApiProperty() created_at: string;
  @ApiPropertyOptional({ type: String, nullable: true }) answered_at?: string | null;

  static from(point: WaitingPointEntity): WaitingPointDto {
    return {
      id: point.id,
      run_id: point.runId,
      kind: WAITING_POINT_KIND,
      tool_call_id: point.toolCallId,
      questions: point.questions,
      status: point.status,
      ...(point.answers === null ? {} : { answers: point.answers }),
      created_at: point.createdAt.toISOString(),
      answered_at: point.answeredAt?.toISOString() ?? null,
    };
  }
}
