import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { MessageEntity, MessageRole } from '../messages/message.entity.js';

export class MessageToolCallDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) args: Record<string, unknown>;
}

export class MessageDto {
  @ApiProperty() id: string;
  @ApiProperty() run_id: string;
  @ApiProperty({ enum: ['user', 'assistant', 'tool'] }) role: MessageRole;
  @ApiProperty() content: string;
  @ApiPropertyOptional({ type: [MessageToolCallDto] }) tool_calls?: MessageToolCallDto[];
  @ApiPropertyOptional() tool_call_id?: string;
  @ApiPropertyOptional() name?: string;
  @ApiProperty() created_at: string;

  static from(message: MessageEntity): MessageDto {
    return {
      id: message.id,
      run_id: message.runId,
      role: message.role,
      content: message.content,
      ...(message.toolCalls === null ? {} : { tool_calls: message.toolCalls }),
      ...(message.toolCallId === null ? {} : { tool_call_id: message.toolCallId }),
      ...(message.name === null ? {} : { name: message.name }),
      created_at: message.createdAt.toISOString(),
    };
  }
}

export class MessagePageDto {
  @ApiProperty({ type: [MessageDto] }) items: MessageDto[];
  @ApiProperty({ nullable: true, type: String }) next_cursor: string | null;
}
