import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { PasswordHasher } from './password-hasher.js';
import { SecretBox } from './secret-box.js';

/** Password hashing and secrets at rest, for every module. */
@Global()
@Module({
  providers: [
    {
      provide: PasswordHasher,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new PasswordHasher(config.auth.passwordHashLogN),
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
  exports: [PasswordHasher, SecretBox],
})
export class CryptoModule {}
