import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import type { AppConfig } from './config/app-config.js';
import { runEntrypoint } from './bootstrap/run-entrypoint.js';
import { WorkerModule } from './worker.module.js';

/** The worker process: consumes the queues, no HTTP. */
export async function startWorker(config: AppConfig): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  await app.init();
  return app;
}

if (require.main === module) runEntrypoint((config) => startWorker(config));
