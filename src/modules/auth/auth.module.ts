import { createSecretKey } from 'node:crypto';
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../../config/app-config.js';
import { UsersModule } from '../users/index.js';
import { ApiKeyDeriver } from './api-keys/api-key-deriver.js';
import { ApiKeyTombstoneEntity } from './api-keys/api-key-tombstone.entity.js';
import { ApiKeyEntity } from './api-keys/api-key.entity.js';
import { ApiKeysController } from './api-keys/api-keys.controller.js';
import { ApiKeysRepository } from './api-keys/api-keys.repository.js';
import { ApiKeysService } from './api-keys/api-keys.service.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { AuthenticationGuard } from './guards/authentication.guard.js';
import { RolesGuard } from './guards/roles.guard.js';
import { LoginRateLimiter } from './login-rate-limiter.js';
import { TokenService } from './token.service.js';

@Module({
  imports: [
    UsersModule,
    TypeOrmModule.forFeature([ApiKeyEntity, ApiKeyTombstoneEntity]),
    JwtModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        // A KeyObject, not a string: jsonwebtoken re-imports a string secret on every verify (~0.4 ms each).
        secret: createSecretKey(Buffer.from(config.auth.jwtSecret.reveal(), 'utf8')),
        signOptions: { algorithm: 'HS256' },
      }),
    }),
  ],
  controllers: [AuthController, ApiKeysController],
  providers: [
    AuthService,
    TokenService,
    LoginRateLimiter,
    ApiKeysRepository,
    ApiKeysService,
    {
      provide: ApiKeyDeriver,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new ApiKeyDeriver([config.secrets.key, ...config.secrets.previousKeys].map((k) => k.reveal())),
    },
    // Order matters: authentication first, then roles.
    { provide: APP_GUARD, useClass: AuthenticationGuard },
    { provide: APP_GUARD, useClass: RolesGuard },
  ],
  exports: [TokenService],
})
export class AuthModule {}
