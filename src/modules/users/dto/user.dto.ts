import { ApiProperty } from '@nestjs/swagger';
import { USER_ROLES, type UserRole } from '../../../common/auth/user-role.js';
import type { UserEntity } from '../user.entity.js';

export class UserDto {
  @ApiProperty() id: string;
  @ApiProperty() username: string;
  @ApiProperty({ enum: USER_ROLES }) role: UserRole;
  @ApiProperty() department_id: string;
  @ApiProperty() disabled: boolean;
  @ApiProperty() created_at: string;

  static from(user: UserEntity): UserDto {
    return {
      id: user.id,
      username: user.username,
      role: user.role,
      department_id: user.departmentId,
      disabled: user.disabled,
      created_at: user.createdAt.toISOString(),
    };
  }
}

export class UserPageDto {
  @ApiProperty({ type: [UserDto] }) items: UserDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}
