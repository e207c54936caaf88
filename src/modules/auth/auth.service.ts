import { Injectable } from '@nestjs/common';
import { PasswordHasher } from '../../common/crypto/password-hasher.js';
import { UsersRepository } from '../users/users.repository.js';
import { AuthErrors } from './auth.errors.js';
import { MeDto, type LoginDto, type TokenDto } from './dto/login.dto.js';
import { LoginRateLimiter } from './login-rate-limiter.js';
import { TokenService } from './token.service.js';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly limiter: LoginRateLimiter,
  ) {}

  async login(input: LoginDto, ip: string): Promise<TokenDto> {
    const wait = await this.limiter.blockedFor(ip);
    if (wait !== null) throw AuthErrors.tooManyLoginAttempts(wait);

    const user = await this.users.findByUsername(input.username);
    const valid =
      user === null
        ? await this.hasher.burn(input.password).then(() => false)
        : await this.hasher.verify(input.password, user.passwordHash);
    if (user === null || !valid) {
      await this.limiter.recordFailure(ip);
      throw AuthErrors.invalidCredentials();
    }
    if (user.disabled) throw AuthErrors.accountDisabled();

    return {
      access_token: await this.tokens.issue(user.id),
      token_type: 'bearer',
      expires_in: this.tokens.ttlSeconds,
      user: MeDto.from(user),
    };
  }
}
