import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { RequestIdField } from '../../../common/idempotency/request-id.field.js';
import { MAX_INPUT_CHARS } from '../dto/run.dto.js';
import { RUN_STATUSES, type RunStatus } from '../runs/run-status.js';
import { WhenPresent } from '../../../common/validation/when-present.js';

export class CreateAgentCallDto {
  @ApiProperty({ example: 'default-chatbot' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  agent_slug: string;

  @ApiProperty({ example: 'What changed in the Q3 report?' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_INPUT_CHARS)
  input: string;

  @ApiPropertyOptional({
    description: 'Continue this thread (it must be the same agent’s); a new one otherwise.',
  })
  @WhenPresent()
  @IsUUID()
  thread_id?: string;

  @ApiPropertyOptional({
    default: false,
    description:
      'Answer when the run ends, or when it waits for its user (status `waiting`: questions to answer or ' +
      'tool calls to approve, see GET /api/runs/:id/waiting-point); 504 with the ids after a bound.',
  })
  @WhenPresent()
  @IsBoolean()
  wait?: boolean;

  @RequestIdField()
  request_id?: string;
}

export class AgentCallResultDto {
  @ApiProperty() run_id: string;
  @ApiProperty() thread_id: string;
  @ApiProperty({ enum: RUN_STATUSES }) status: RunStatus;
  @ApiPropertyOptional({ description: 'The final assistant text (with wait: true, when the run completed).' })
  output?: string;
}
