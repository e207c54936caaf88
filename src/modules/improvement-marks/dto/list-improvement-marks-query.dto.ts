import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { ANY_TIME, IsWindowTime, NotBeforeSince } from '../../../common/validation/time-window.js';

export class ListImprovementMarksQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only marks saved by runs of this agent.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  agent_slug?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "Only this user's marks. A normal user only ever sees their own: another user's id gives an empty list.",
  })
  @IsOptional()
  @IsUUID()
  user_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only marks saved by this run.' })
  @IsOptional()
  @IsUUID()
  run_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Created at or after this time (inclusive).' })
  @IsOptional()
  @IsWindowTime(ANY_TIME)
  since?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Created before this time (exclusive); not before `since`.',
  })
  @IsOptional()
  @IsWindowTime(ANY_TIME)
  @NotBeforeSince(ANY_TIME)
  until?: string;
}
