import { DomainError } from '../../common/errors/domain-error.js';

export const UsersErrors = {
  notFound: () => new DomainError('not_found', 'users.not_found', 'User not found.'),
  usernameTaken: (username: string) =>
    new DomainError('conflict', 'users.username_taken', `The username "${username}" is taken.`, {
      details: { username },
    }),
  roleGrantForbidden: (role: string) =>
    new DomainError(
      'forbidden',
      'users.role_grant_forbidden',
      `Only a superadmin may grant the ${role} role.`,
      {
        details: { role },
      },
    ),
  manageForbidden: () =>
    new DomainError(
      'forbidden',
      'users.manage_forbidden',
      'Only a superadmin may change an admin or superadmin account.',
    ),
  lastSuperadmin: () =>
    new DomainError(
      'conflict',
      'users.last_superadmin',
      'This is the last active superadmin; it cannot be disabled or demoted.',
    ),
  unknownDepartment: (departmentId: string) =>
    new DomainError('unprocessable', 'users.unknown_department', 'The department does not exist.', {
      details: { field: 'department_id', ids: [departmentId] },
    }),
  departmentNameTaken: (name: string) =>
    new DomainError('conflict', 'departments.name_taken', `A department named "${name}" exists.`, {
      details: { name },
    }),
};
