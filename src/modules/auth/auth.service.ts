import { Injectable, Logger } from '@nestjs/common';
import { PasswordHasher } from '../../common/crypto/password-hasher.js';
import { UserAccounts, type UserAccount } from '../users/index.js';
import { AuthErrors } from './auth.errors.js';
import { MeDto, type LoginDto, type TokenDto } from './dto/login.dto.js';
import { LoginRateLimiter } from './login-rate-limiter.js';
import { TokenService } from './token.service.js';

@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);

  constructor(
    private readonly users: UserAccounts,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly limiter: LoginRateLimiter,
  ) {}

  async login(input: LoginDto, ip: string): Promise<TokenDto> {
    // Reserved before the password is checked: parallel guesses cannot all pass a check made before any
    // was counted. Anything but wrong credentials gives the attempt back.
    const attempt = await this.limiter.reserve(ip);
    if (!attempt.allowed) throw AuthErrors.tooManyLoginAttempts(attempt.retryAfterSeconds);
    let failed = false;
    let user: UserAccount | null;
    try {
      user = await this.users.findByUsername(input.username);
      const valid =
        user === null
          ? await this.hasher.burn(input.password).then(() => false)
          : await this.hasher.verify(input.password, user.passwordHash);
      failed = user === null || !valid;
    } finally {
      if (!failed) await attempt.release();
    }
    if (failed || user === null) throw AuthErrors.invalidCredentials();
    if (user.disabled) throw AuthErrors.accountDisabled();
    await this.upgradeHashIfWeak(user, input.password);

    return {
      access_token: await this.tokens.issue(user),
      token_type: 'bearer',
      expires_in: this.tokens.ttlSeconds,
      user: MeDto.from(user),
    };
  }

  /** The password is known right now: store it at the current cost if its hash is older and weaker. */
  private async upgradeHashIfWeak(user: UserAccount, password: string): Promise<void> {
    if (!this.hasher.needsRehash(user.passwordHash)) return;
    try {
      await this.users.upgradePasswordHash(user.id, user.passwordHash, await this.hasher.hash(password));
    } catch (error) {
      // The old hash still verifies; the next login tries again.
      this.logger.warn({ err: (error as Error).message, user_id: user.id }, 'could not rehash a password');
    }
  }
}
