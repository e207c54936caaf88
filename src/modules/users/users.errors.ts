import { DomainError, declareErrorCodes } from '../../common/errors/index.js';

export const UsersErrorCode = {
  NOT_FOUND: 'users.not_found',
  USERNAME_TAKEN: 'users.username_taken',
  ROLE_GRANT_FORBIDDEN: 'users.role_grant_forbidden',
  MANAGE_FORBIDDEN: 'users.manage_forbidden',
  LAST_SUPERADMIN: 'users.last_superadmin',
  UNKNOWN_DEPARTMENT: 'users.unknown_department',
} as const;
export type UsersErrorCode = (typeof UsersErrorCode)[keyof typeof UsersErrorCode];
declareErrorCodes(UsersErrorCode);

export const DepartmentsErrorCode = {
  NAME_TAKEN: 'departments.name_taken',
} as const;
export type DepartmentsErrorCode = (typeof DepartmentsErrorCode)[keyof typeof DepartmentsErrorCode];
declareErrorCodes(DepartmentsErrorCode);

export const UsersErrors = {
  notFound: () => new DomainError('not_found', UsersErrorCode.NOT_FOUND, 'User not found.'),
  usernameTaken: (username: string) =>
    new DomainError('conflict', UsersErrorCode.USERNAME_TAKEN, `The username "${username}" is taken.`, {
      details: { username },
    }),
  roleGrantForbidden: (role: string) =>
    new DomainError(
      'forbidden',
      UsersErrorCode.ROLE_GRANT_FORBIDDEN,
      `Only a superadmin may grant the ${role} role.`,
      {
        details: { role },
      },
    ),
  manageForbidden: () =>
    new DomainError(
      'forbidden',
      UsersErrorCode.MANAGE_FORBIDDEN,
      'Only a superadmin may change an admin or superadmin account.',
    ),
  lastSuperadmin: () =>
    new DomainError(
      'conflict',
      UsersErrorCode.LAST_SUPERADMIN,
      'This is the last active superadmin; it cannot be disabled or demoted.',
    ),
  unknownDepartment: (departmentId: string) =>
    new DomainError('unprocessable', UsersErrorCode.UNKNOWN_DEPARTMENT, 'The department does not exist.', {
      details: { field: 'department_id', ids: [departmentId] },
    }),
  departmentNameTaken: (name: string) =>
    new DomainError('conflict', DepartmentsErrorCode.NAME_TAKEN, `A department named "${name}" exists.`, {
      details: { name },
    }),
};
