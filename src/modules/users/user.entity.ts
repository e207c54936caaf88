import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { UserRole } from '../../common/auth/user-role.js';
import { DepartmentEntity } from './department.entity.js';

@Entity({ name: 'users' })
@Check('users_role_check', `"role" IN ('user', 'admin', 'superadmin')`)
@Index('users_username_lower_key', { synchronize: false })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Unique case-insensitively (functional index `users_username_lower_key` in the migration). */
  @Column({ type: 'varchar', length: 64 })
  username: string;

  @Column({ type: 'text' })
  passwordHash: string;

  @Column({ type: 'varchar', length: 16, default: 'user' })
  role: UserRole;

  @Index('users_department_id_idx')
  @Column({ type: 'uuid' })
  departmentId: string;

  @ManyToOne(() => DepartmentEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'department_id' })
  department?: DepartmentEntity;

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  /** Incremented by a password, role or status change; access tokens issued under another are refused. */
  @Column({ type: 'integer', default: 0 })
  tokenVersion: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
