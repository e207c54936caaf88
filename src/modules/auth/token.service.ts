import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '../../config/app-config.js';

interface AccessTokenClaims {
  sub: string;
  typ: 'access';
  /** The user's `token_version` at issue time. */
  ver: number;
}

export interface VerifiedAccessToken {
  userId: string;
  /** Tokens issued before versions existed carry none: they count as version 0. */
  tokenVersion: number;
}

/**
 * HS256 access tokens carrying the user id and the user's token version; role and status are read fresh
 * on every request, and a token whose version is not the user's current one is refused.
 */
@Injectable()
export class TokenService {
  constructor(
    private readonly jwt: JwtService,
    private readonly config: AppConfig,
  ) {}

  get ttlSeconds(): number {
    return this.config.auth.jwtTtlSeconds;
  }

  issue(user: { id: string; tokenVersion: number }): Promise<string> {
    const claims: AccessTokenClaims = { sub: user.id, typ: 'access', ver: user.tokenVersion };
    return this.jwt.signAsync(claims, { expiresIn: this.ttlSeconds });
  }

  /** The claims, or null when the token is malformed, forged or expired. */
  async verify(token: string): Promise<VerifiedAccessToken | null> {
    let claims: Partial<AccessTokenClaims>;
    try {
      claims = await this.jwt.verifyAsync<Partial<AccessTokenClaims>>(token, { algorithms: ['HS256'] });
    } catch {
      return null;
    }
    if (claims.typ !== 'access' || typeof claims.sub !== 'string') return null;
    if (claims.ver !== undefined && !Number.isInteger(claims.ver)) return null;
    return { userId: claims.sub, tokenVersion: claims.ver ?? 0 };
  }
}
