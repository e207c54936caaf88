import { ApiProperty } from '@nestjs/swagger';
import type { ImprovementMarkEntity } from '../improvement-mark.entity.js';

export class ImprovementMarkDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) run_id: string;
  @ApiProperty({ description: 'The tool call that saved the mark.' }) tool_call_id: string;
  @ApiProperty() agent_slug: string;
  @ApiProperty({ format: 'uuid', description: "The run's user." }) user_id: string;
  @ApiProperty({ format: 'uuid' }) thread_id: string;
  @ApiProperty({ description: 'What the agent recorded (1-4000 characters), unverified.' }) reason: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;

  static from(mark: ImprovementMarkEntity): ImprovementMarkDto {
    return {
      id: mark.id,
      run_id: mark.runId,
      tool_call_id: mark.toolCallId,
      agent_slug: mark.agentSlug,
      user_id: mark.userId,
      thread_id: mark.threadId,
      reason: mark.reason,
      created_at: mark.createdAt.toISOString(),
    };
  }
}

export class ImprovementMarkPageDto {
  @ApiProperty({ type: [ImprovementMarkDto] }) items: ImprovementMarkDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}
