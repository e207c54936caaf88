import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { RequestIdField } from '../../../common/idempotency/request-id.field.js';
import type { ThreadEntity } from '../thread.entity.js';
import { WhenPresent } from '../../../common/validation/when-present.js';

export class CreateThreadDto {
  @ApiProperty({ example: 'default-chatbot' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  agent_slug: string;

  @ApiPropertyOptional({ example: 'Quarterly report' })
  @WhenPresent()
  @IsString()
  @MaxLength(200)
  title?: string;

  @RequestIdField()
  request_id?: string;
}

export class UpdateThreadDto {
  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  title: string;
}

export class ThreadDto {
  @ApiProperty() id: string;
  @ApiProperty() agent_slug: string;
  @ApiProperty() title: string;
  @ApiProperty({ description: 'Virtual path of the thread’s project workdir.' }) workdir: string;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static from(thread: ThreadEntity, workdir: string): ThreadDto {
    return {
      id: thread.id,
      agent_slug: thread.agentSlug,
      title: thread.title,
      workdir,
      created_at: thread.createdAt.toISOString(),
      updated_at: thread.updatedAt.toISOString(),
    };
  }
}

export class ThreadPageDto {
  @ApiProperty({ type: [ThreadDto] }) items: ThreadDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}

export class UploadedPathDto {
  @ApiProperty({ example: '/home/gem/user-data/workdir/t-…/report.pdf' }) path: string;
}

export class ArtifactDto {
  @ApiProperty() path: string;
  @ApiProperty() run_id: string;
  @ApiProperty() created_at: string;
}

export class ArtifactListDto {
  @ApiProperty({ type: [ArtifactDto] }) items: ArtifactDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}

export class FileQueryDto {
  @ApiProperty({ description: 'Virtual path, absolute or relative to the thread’s workdir.' })
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  path: string;
}
