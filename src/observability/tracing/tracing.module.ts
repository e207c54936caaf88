import { Global, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { shutdownTracing } from './start-tracing.js';

/** Flushes the last spans when the application shuts down. */
@Injectable()
export class TracingShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return shutdownTracing();
  }
}

/**
 * Global so that Nest calls its shutdown hook after those of every other module (global modules come
 * last, the first imported of them last of all): by then runs were drained and the HTTP server closed,
 * so their spans have ended. Imported first of all modules (`coreImports`).
 */
@Global()
@Module({ providers: [TracingShutdown] })
export class TracingModule {}
