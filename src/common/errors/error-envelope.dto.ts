import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CommonErrorCode } from './common.errors.js';

/** The body of every error response. */
export class ErrorEnvelopeDto {
  @ApiProperty({ example: 404 })
  status_code: number;

  @ApiProperty({ example: CommonErrorCode.NOT_FOUND, description: 'Stable `<module>.<snake_case>` code.' })
  code: string;

  @ApiProperty({ example: 'User not found.' })
  message: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  details: Record<string, unknown> | null;

  @ApiProperty({ example: '5f0c6a0e-4b8e-4f55-a1f1-0d2f3c1b9a77' })
  request_id: string;
}
