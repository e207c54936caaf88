import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import type { ShareConfigInput } from './resolve-share-config.js';
import type { ShareScope } from './share-config.js';
import { WhenPresent } from '../validation/when-present.js';
import { IsShareScopeOrNull } from './share-scope.validator.js';

const SCOPE_SCHEMA = {
  nullable: true,
  type: 'object',
  additionalProperties: true,
  description:
    '`{"level":"global"}`, `{"level":"department","department_ids":[…]}` or `{"level":"users","user_ids":[…]}`',
} as const;

/** A submitted share config (agents, skills, knowledge bases: `docs/api.md` "Share configs"). */
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
