import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsString, MaxLength, MinLength } from 'class-validator';
import { RequestIdField } from '../../../../common/idempotency/request-id.field.js';
import type { ApiKeyEntity } from '../api-key.entity.js';
import { WhenPresent } from '../../../../common/validation/when-present.js';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'ci pipeline' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ description: 'ISO-8601 time after which the key stops working.' })
  @WhenPresent()
  @IsDateString({ strict: true })
  expires_at?: string;

  @RequestIdField()
  request_id?: string;
}

export class ApiKeyCreatedDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'yxk_1a2b3c4d' }) key_prefix: string;
  @ApiProperty({ description: 'The full key. Keep it: it is shown only in this response (and its replays).' })
  key: string;
  @ApiProperty({ type: String, nullable: true }) expires_at: string | null;
  @ApiProperty() created_at: string;
}

export class ApiKeyDto {
  @ApiProperty() id: string;
  @ApiProperty() user_id: string;
  @ApiProperty() name: string;
  @ApiProperty() key_prefix: string;
  @ApiProperty({ type: String, nullable: true }) expires_at: string | null;
  @ApiProperty({ type: String, nullable: true }) revoked_at: string | null;
  @ApiProperty({ type: String, nullable: true }) last_used_at: string | null;
  @ApiProperty() created_at: string;

  static from(row: ApiKeyEntity): ApiKeyDto {
    return {
      id: row.id,
      user_id: row.userId,
      name: row.name,
      key_prefix: row.keyPrefix,
      expires_at: row.expiresAt?.toISOString() ?? null,
      revoked_at: row.revokedAt?.toISOString() ?? null,
      last_used_at: row.lastUsedAt?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
    };
  }
}

export class ApiKeyPageDto {
  @ApiProperty({ type: [ApiKeyDto] }) items: ApiKeyDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}
