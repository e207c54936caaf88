import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { AgentEntity } from '../agent.entity.js';
import type { AgentConfig } from '../config/agent-config.js';
import type { ConfigFieldType } from '../config/agent-config-fields.js';
import type { ShareConfig } from '../../../common/sharing/index.js';
import type { ApprovalPolicy } from '../../tools/index.js';
import { AgentConfigDto } from './agent-config.dto.js';
import { ShareConfigDto } from '../../../common/sharing/index.js';

export type AgentPermission = 'read' | 'manage';

/** A config field's value for a new agent: text, a number, a resource list or an approval policy. */
export type ConfigurableDefault = string | number | string[] | ApprovalPolicy;

export class ConfigurableOptionDto {
  @ApiProperty() value: string;
  @ApiProperty() label: string;
  @ApiPropertyOptional() description?: string;
}

export class ConfigurableItemDto {
  @ApiProperty() field: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ enum: ['text', 'string', 'integer', 'resources', 'approval'] }) type: ConfigFieldType;
  @ApiProperty({ description: 'Value for a new agent.' }) default: ConfigurableDefault;
  @ApiPropertyOptional() minimum?: number;
  @ApiPropertyOptional() maximum?: number;
  @ApiPropertyOptional({ type: [ConfigurableOptionDto], description: "Drawn from the caller's resources." })
  options?: ConfigurableOptionDto[];
}

/** An agent in a list: everything but the edit form. */
export class AgentSummaryDto {
  @ApiProperty() slug: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() is_subagent: boolean;
  @ApiProperty() builtin: boolean;
  @ApiProperty({ type: String, nullable: true }) owner_id: string | null;
  @ApiProperty({ type: ShareConfigDto }) share_config: ShareConfig;
  @ApiProperty({ type: AgentConfigDto }) config: AgentConfig;
  @ApiProperty({ enum: ['read', 'manage'] }) permission: AgentPermission;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static from(agent: AgentEntity, permission: AgentPermission): AgentSummaryDto {
    return {
      slug: agent.slug,
      name: agent.name,
      description: agent.description,
      is_subagent: agent.isSubagent,
      builtin: agent.builtin,
      owner_id: agent.ownerId,
      share_config: agent.shareConfig,
      config: agent.config,
      permission,
      created_at: agent.createdAt.toISOString(),
      updated_at: agent.updatedAt.toISOString(),
    };
  }
}

export class AgentDto extends AgentSummaryDto {
  @ApiProperty({
    type: [ConfigurableItemDto],
    description: 'The fields the caller may edit (none for a reader).',
  })
  configurable_items: ConfigurableItemDto[];
}

export class AgentPageDto {
  @ApiProperty({ type: [AgentSummaryDto] }) items: AgentSummaryDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}
