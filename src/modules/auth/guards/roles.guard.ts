import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { REQUIRED_ROLE, type RequestWithUser } from '../../../common/auth/auth.decorators.js';
import { roleAtLeast, type UserRole } from '../../../common/auth/user-role.js';
import { AuthErrors } from '../auth.errors.js';

/** Enforces `@Roles()`; runs after the authentication guard. */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const required = this.reflector.getAllAndOverride<UserRole | undefined>(REQUIRED_ROLE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (required === undefined) return true;
    const user = context.switchToHttp().getRequest<RequestWithUser>().user;
    if (user === undefined || !roleAtLeast(user.role, required)) throw AuthErrors.forbidden(required);
    return true;
  }
}
