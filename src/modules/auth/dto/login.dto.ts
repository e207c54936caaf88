import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { USER_ROLES, type UserRole } from '../../../common/auth/user-role.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';

export class LoginDto {
  @ApiProperty({ example: 'admin' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  username: string;

  @ApiProperty({ format: 'password' })
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password: string;
}

export class MeDto {
  @ApiProperty() id: string;
  @ApiProperty() username: string;
  @ApiProperty({ enum: USER_ROLES }) role: UserRole;
  @ApiProperty() department_id: string;

  static from(user: Pick<AuthenticatedUser, 'id' | 'username' | 'role' | 'departmentId'>): MeDto {
    return { id: user.id, username: user.username, role: user.role, department_id: user.departmentId };
  }
}

export class TokenDto {
  @ApiProperty() access_token: string;
  @ApiProperty({ enum: ['bearer'] }) token_type: 'bearer';
  @ApiProperty({ description: 'Seconds until the token expires.' }) expires_in: number;
  @ApiProperty({ type: MeDto }) user: MeDto;
}
