import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { USER_ROLES, type UserRole } from '../../../common/auth/user-role.js';
import { PasswordField, UsernameField } from './user-fields.js';

export class CreateUserDto {
  @UsernameField()
  username: string;

  @PasswordField(true)
  password: string;

  @ApiPropertyOptional({ enum: USER_ROLES, default: 'user' })
  @IsOptional()
  @IsIn(USER_ROLES)
  role?: UserRole;

  @ApiPropertyOptional({ description: 'Defaults to the `default` department.' })
  @IsOptional()
  @IsUUID()
  department_id?: string;
}
