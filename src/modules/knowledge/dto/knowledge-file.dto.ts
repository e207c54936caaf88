import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { OcrErrorCode } from '../../ocr/index.js';
import { KNOWLEDGE_FILE_STATUSES, type KnowledgeFileStatus } from '../storage/knowledge-file.entity.js';

export class KnowledgeFileErrorDto {
  @ApiProperty({ example: OcrErrorCode.UNREADABLE }) code: string;
  @ApiProperty() message: string;
}

export class KnowledgeFileDto {
  @ApiProperty({ format: 'uuid' }) file_id: string;
  @ApiProperty({ format: 'uuid' }) kb_id: string;
  @ApiProperty() filename: string;
  @ApiProperty({ example: 'pdf', description: 'The extension the document was parsed as.' })
  file_type: string;
  @ApiProperty() size_bytes: number;
  @ApiProperty({ enum: KNOWLEDGE_FILE_STATUSES }) status: KnowledgeFileStatus;
  @ApiProperty({ type: KnowledgeFileErrorDto, nullable: true, description: 'Set when status is `failed`.' })
  error: KnowledgeFileErrorDto | null;
  @ApiProperty({ description: 'Grows by one at each upload of the same name.' }) version: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Lines of the parsed Markdown.' })
  line_count: number | null;
  @ApiProperty({ type: Number, nullable: true }) chunk_count: number | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export class KnowledgeFilePageDto {
  @ApiProperty({ type: [KnowledgeFileDto] }) items: KnowledgeFileDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}

export class ListKnowledgeFilesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ maxLength: 200, description: 'Files whose name contains this (case-insensitive).' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  query?: string;
}
