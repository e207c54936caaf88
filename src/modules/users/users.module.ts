import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountDisabledHooks } from './account-disabled-hooks.js';
import { DepartmentEntity } from './department.entity.js';
import { DepartmentsController } from './departments.controller.js';
import { DepartmentsRepository } from './departments.repository.js';
import { DepartmentsService } from './departments.service.js';
import { InitialAccounts } from './initial-accounts.js';
import { UserAccounts } from './user-accounts.js';
import { UserEntity } from './user.entity.js';
import { UserDirectoryController } from './user-directory.controller.js';
import { UsersController } from './users.controller.js';
import { UsersRepository } from './users.repository.js';
import { UsersService } from './users.service.js';

/** Users and departments; other modules ask `UserAccounts`, never the `users` table. */
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, DepartmentEntity])],
  controllers: [UserDirectoryController, UsersController, DepartmentsController],
  providers: [
    UsersRepository,
    DepartmentsRepository,
    UsersService,
    DepartmentsService,
    InitialAccounts,
    UserAccounts,
    AccountDisabledHooks,
  ],
  exports: [UserAccounts, AccountDisabledHooks],
})
export class UsersModule {}
