import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import { RequestIdField } from '../../../common/idempotency/request-id.field.js';
import {
  WAITING_POINT_KINDS,
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

export class SubmitDecisionsDto {
  @ApiProperty({
    description:
      'A decision for every call of the point, keyed by tool_call_id: `{decision: "approve"|"reject"|"edit", ' +
      'args? (edit: the new arguments), message? (reject: what the model is told), remember?: "once"|"thread"}`.',
    example: {
      call_1: { decision: 'approve', remember: 'thread' },
      call_2: { decision: 'reject', message: 'Not now.' },
    },
    type: 'object',
    additionalProperties: true,
  })
  @IsObject()
  decisions: Record<string, unknown>;

  @RequestIdField()
  request_id?: string;
}

export class WaitingPointDto {
  @ApiProperty() id: string;
  @ApiProperty() run_id: string;
  @ApiProperty({
    enum: WAITING_POINT_KINDS,
    description: 'What the run waits for: answers to questions, or decisions on tool calls.',
  })
  kind: WaitingPointKind;
  @ApiProperty() tool_call_id: string;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  questions: unknown[];
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description:
      'For `approval`: each call waiting for a decision `{tool_call_id, name, args, source, server?, reason, args_schema}`.',
  })
  approvals?: unknown[];
  @ApiProperty({ enum: ['open', 'answered', 'cancelled'] }) status: WaitingPointStatus;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) answers?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'For an answered `approval` point: the decisions, by tool_call_id.',
  })
  decisions?: Record<string, unknown>;
  @ApiProperty() created_at: string;
  @ApiPropertyOptional({ type: String, nullable: true }) answered_at?: string | null;

  static from(point: WaitingPointEntity): WaitingPointDto {
    return {
      id: point.id,
      run_id: point.runId,
      kind: point.kind,
      tool_call_id: point.toolCallId,
      questions: point.questions,
      ...(point.approvals === null ? {} : { approvals: point.approvals }),
      status: point.status,
      ...(point.answers === null ? {} : { answers: point.answers }),
      ...(point.decisions === null ? {} : { decisions: point.decisions }),
      created_at: point.createdAt.toISOString(),
      answered_at: point.answeredAt?.toISOString() ?? null,
    };
  }
}
