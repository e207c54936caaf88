import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

export const MAX_TOP_K = 50;
export const DEFAULT_TOP_K = 10;

export class KnowledgeQueryDto {
  @ApiProperty({ maxLength: 2000 })
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  query: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_TOP_K, default: DEFAULT_TOP_K })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_TOP_K)
  top_k?: number;

  @ApiPropertyOptional({ maxLength: 500, description: 'Only this file (its name, case-insensitive).' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  file_name?: string;
}

export class KnowledgeHitDto {
  @ApiProperty({ format: 'uuid' }) kb_id: string;
  @ApiProperty({ format: 'uuid' }) file_id: string;
  @ApiProperty() filename: string;
  @ApiProperty() chunk_index: number;
  @ApiProperty() content: string;
  @ApiProperty({ description: 'BM25, or the reciprocal-rank fusion score when embeddings are on.' })
  score: number;
}

export class KnowledgeQueryResultDto {
  @ApiProperty({ type: [KnowledgeHitDto], description: 'Best first.' }) items: KnowledgeHitDto[];
}
