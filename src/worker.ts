import type { INestApplicationContext } from '@nestjs/common';
import type { AppConfig } from './config/app-config.js';
import { runEntrypoint } from './bootstrap/run-entrypoint.js';

/**
 * The worker process (`npm run start:worker`, or `APP_ROLE=worker`). Its code is loaded only once the
 * entrypoint has started tracing, which must patch `http` before Nest loads.
 */
export async function startWorker(config: AppConfig): Promise<INestApplicationContext> {
  return (await import('./bootstrap/start-worker.js')).startWorker(config);
}

if (require.main === module) runEntrypoint(startWorker);
