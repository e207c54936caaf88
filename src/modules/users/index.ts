// The users module's front door: what other modules may use. Everything else is internal.
import { DepartmentEntity } from './department.entity.js';
import { UserEntity } from './user.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const USERS_ENTITIES = [DepartmentEntity, UserEntity];

export { UsersModule } from './users.module.js';
export { UserAccounts } from './user-accounts.js';
export type { UserAccount, ActiveActor, SessionAccount } from './user-accounts.js';
export { AccountDisabledHooks } from './account-disabled-hooks.js';
