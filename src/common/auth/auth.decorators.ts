import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthenticatedUser } from './authenticated-user.js';
import type { UserRole } from './user-role.js';

export const PUBLIC_ROUTE = 'auth:public';
export const REQUIRED_ROLE = 'auth:role';

/** The route needs no authentication (every other route does: deny by default). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** The caller's role must be at least `role` (admin routes also admit superadmins). */
export const Roles = (role: UserRole) => SetMetadata(REQUIRED_ROLE, role);

export type RequestWithUser = Request & { user?: AuthenticatedUser };

export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthenticatedUser => {
  const user = ctx.switchToHttp().getRequest<RequestWithUser>().user;
  if (user === undefined) throw new Error('@CurrentUser() used on a route without authentication');
  return user;
});
