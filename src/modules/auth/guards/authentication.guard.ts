import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PUBLIC_ROUTE, type RequestWithUser } from '../../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { UserAccounts, type SessionAccount } from '../../users/index.js';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { AuthErrors } from '../auth.errors.js';
import { TokenService } from '../token.service.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Global and deny-by-default: every route needs a JWT or an API key unless marked `@Public()`.
 * The user row is read on every request, so disabling an account or changing a role takes effect at once,
 * and an access token issued before a password, role or status change (another token version) is refused.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly apiKeys: ApiKeysService,
    private readonly users: UserAccounts,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) {
      return true;
    }
    const request = context.switchToHttp().getRequest<RequestWithUser>();
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (match === null) throw AuthErrors.missingCredentials();
    request.user = await this.authenticate(match[1]);
    return true;
  }

  private async authenticate(credential: string): Promise<AuthenticatedUser> {
    let user: SessionAccount | null;
    let apiKeyId: string | undefined;
    let tokenVersion: number | undefined;
    if (credential.startsWith('yxk_')) {
      ({ user, apiKeyId } = await this.apiKeys.authenticate(credential));
    } else {
      const token = await this.tokens.verify(credential);
      tokenVersion = token?.tokenVersion;
      user = token === null ? null : await this.users.sessionAccount(token.userId);
    }
    if (user === null) throw AuthErrors.invalidToken();
    if (user.disabled) throw AuthErrors.accountDisabled();
    if (tokenVersion !== undefined && tokenVersion !== user.tokenVersion) throw AuthErrors.tokenRevoked();
    return {
      id: user.id,
      username: user.username,
      role: user.role,
      departmentId: user.departmentId,
      via: apiKeyId === undefined ? 'jwt' : 'api_key',
      ...(apiKeyId === undefined ? {} : { apiKeyId }),
    };
  }
}
