import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsUUID } from 'class-validator';
import { USER_ROLES, type UserRole } from '../../../common/auth/user-role.js';
import { PasswordField } from './user-fields.js';
import { WhenPresent } from '../../../common/validation/when-present.js';

export class UpdateUserDto {
  @ApiPropertyOptional({ enum: USER_ROLES })
  @WhenPresent()
  @IsIn(USER_ROLES)
  role?: UserRole;

  @ApiPropertyOptional()
  @WhenPresent()
  @IsUUID()
  department_id?: string;

  @ApiPropertyOptional({
    description: 'A disabled user cannot log in; their tokens and keys stop working at once.',
  })
  @WhenPresent()
  @IsBoolean()
  disabled?: boolean;

  @PasswordField(false)
  @WhenPresent()
  password?: string;
}
