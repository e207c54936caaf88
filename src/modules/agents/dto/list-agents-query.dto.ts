import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';

export class ListAgentsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ default: false, description: 'Also list subagents.' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  include_subagents: boolean = false;
}
