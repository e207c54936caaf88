import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { PasswordCheckGate } from './password-check-gate.js';
import { PasswordHasher } from './password-hasher.js';
import { SecretBox } from './secret-box.js';

/** Password hashing and secrets at rest, for every module. */
@Global()
@Module({
  providers: [
    {
      provide: PasswordCheckGate,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new PasswordCheckGate(config.auth.passwordCheckConcurrency, config.auth.passwordCheckQueue),
    },
    {
      provide: PasswordHasher,
      inject: [AppConfig, PasswordCheckGate],
      useFactory: (config: AppConfig, gate: PasswordCheckGate) =>
        new PasswordHasher(config.auth.passwordHashLogN, gate),
    },
    {
      provide: SecretBox,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new SecretBox(
          config.secrets.key.reveal(),
          config.secrets.previousKeys.map((k) => k.reveal()),
        ),
    },
  ],
  exports: [PasswordHasher, PasswordCheckGate, SecretBox],
})
export class CryptoModule {}
