import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  MinLength,
  ValidateBy,
  isISO8601,
  type ValidationArguments,
} from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';

/** An ISO-8601 time that JavaScript can read (so it reaches PostgreSQL as a real timestamp). */
export const isTimestamp = (value: unknown): boolean =>
  typeof value === 'string' && isISO8601(value, { strict: true }) && Number.isFinite(Date.parse(value));

const IsTimestamp = () =>
  ValidateBy({
    name: 'isTimestamp',
    validator: {
      validate: isTimestamp,
      defaultMessage: (args?: ValidationArguments) => `${args?.property} must be an ISO-8601 time`,
    },
  });

/** `until` may not lie before `since` (checked only when both are valid times). */
const NotBeforeSince = () =>
  ValidateBy({
    name: 'notBeforeSince',
    validator: {
      validate: (until: unknown, args?: ValidationArguments) => {
        const since = (args?.object as { since?: unknown } | undefined)?.since;
        if (!isTimestamp(since) || !isTimestamp(until)) return true;
        return Date.parse(since as string) <= Date.parse(until as string);
      },
      defaultMessage: () => 'until must not be before since',
    },
  });

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
  @IsTimestamp()
  since?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Created before this time (exclusive); not before `since`.',
  })
  @IsOptional()
  @IsTimestamp()
  @NotBeforeSince()
  until?: string;
}
