import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsUUID } from 'class-validator';
import { USER_ROLES, type UserRole } from '../../../common/auth/user-role.js';
import { PasswordField } from './user-fields.js';

export class UpdateUserDto {
  @ApiPropertyOptional({ enum: USER_ROLES })
  @IsOptional()
  @IsIn(USER_ROLES)
  role?: UserRole;

  @ApiPropertyOptional()
  @IsOptional()
  @IsUUID()
  department_id?: string;

  @ApiPropertyOptional({
    description: 'A disabled user cannot log in; their tokens and keys stop working at once.',
  })
  @IsOptional()
  @IsBoolean()
  disabled?: boolean;

  @PasswordField(false)
  @IsOptional()
  password?: string;
}
