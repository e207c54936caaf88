import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import type { ShareConfigInput } from '../sharing/share-config-policy.js';
import type { ShareScope } from '../sharing/share-config.js';
import { WhenPresent } from '../../../common/validation/when-present.js';
import { IsShareScopeOrNull } from './config-validators.js';

const SCOPE_SCHEMA = {
  nullable: true,
  type: 'object',
  additionalProperties: true,
  description:
    '`{"level":"global"}`, `{"level":"department","department_ids":[…]}` or `{"level":"users","user_ids":[…]}`',
} as const;

export class ShareConfigDto implements ShareConfigInput {
  @ApiProperty({ enum: [2] })
  @IsIn([2])
  version: 2;

  @ApiPropertyOptional({ ...SCOPE_SCHEMA, description: `${SCOPE_SCHEMA.description}; default: the creator.` })
  @WhenPresent()
  @IsShareScopeOrNull()
  read_scope?: ShareScope | null;

  @ApiPropertyOptional({
    ...SCOPE_SCHEMA,
    description: `${SCOPE_SCHEMA.description}; inside the read scope.`,
  })
  @WhenPresent()
  @IsShareScopeOrNull()
  manage_scope?: ShareScope | null;
}
