import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsUUID } from 'class-validator';
import { USER_ROLES, type UserRole } from '../../../common/auth/user-role.js';
import { PasswordField, UsernameField } from './user-fields.js';
import { WhenPresent } from '../../../common/validation/when-present.js';

export class CreateUserDto {
  @UsernameField()
  username: string;

  @PasswordField(true)
  password: string;

  @ApiPropertyOptional({ enum: USER_ROLES, default: 'user' })
  @WhenPresent()
  @IsIn(USER_ROLES)
  role?: UserRole;

  @ApiPropertyOptional({ description: 'Defaults to the `default` department.' })
  @WhenPresent()
  @IsUUID()
  department_id?: string;
}
