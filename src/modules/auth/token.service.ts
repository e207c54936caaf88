import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '../../config/app-config.js';

interface AccessTokenClaims {
  sub: string;
  typ: 'access';
}

/** HS256 access tokens carrying only the user id; role and status are read fresh on every request. */
@Injectable()
export class TokenService {
  constructor(
    private readonly jwt: JwtService,
    private readonly config: AppConfig,
  ) {}

  get ttlSeconds(): number {
    return this.config.auth.jwtTtlSeconds;
  }

  issue(userId: string): Promise<string> {
    const claims: AccessTokenClaims = { sub: userId, typ: 'access' };
    return this.jwt.signAsync(claims, { expiresIn: this.ttlSeconds });
  }

  /** The user id, or null when the token is malformed, forged or expired. */
  async verify(token: string): Promise<string | null> {
    try {
      const claims = await this.jwt.verifyAsync<Partial<AccessTokenClaims>>(token, { algorithms: ['HS256'] });
      return claims.typ === 'access' && typeof claims.sub === 'string' ? claims.sub : null;
    } catch {
      return null;
    }
  }
}
