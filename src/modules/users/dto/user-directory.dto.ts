import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';

export const DIRECTORY_LIMIT = 20;

/** `q`: usernames starting with it; `ids`: these accounts (comma-separated). Neither: the first names. */
export class UserDirectoryQueryDto {
  @ApiPropertyOptional({ description: 'A username prefix (case-insensitive).', maxLength: 100 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  q?: string;

  @ApiPropertyOptional({ description: 'Comma-separated user ids (at most 100).', type: String })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.split(',') : value))
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  ids?: string[];
}

/** What any user may know of another: enough to share something with them by name. */
export class DirectoryEntryDto {
  @ApiProperty() id: string;
  @ApiProperty() username: string;
}

export class UserDirectoryDto {
  @ApiProperty({ type: [DirectoryEntryDto] }) items: DirectoryEntryDto[];
}
