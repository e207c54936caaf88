import { Module } from '@nestjs/common';
import { SafeHttpClient } from './safe-http-client.js';

/** Provides `SafeHttpClient`; `AppConfig` comes from the global `AppConfigModule`. */
@Module({
  providers: [SafeHttpClient],
  exports: [SafeHttpClient],
})
export class SafeHttpModule {}
