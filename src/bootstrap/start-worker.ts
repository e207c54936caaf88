import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import type { AppConfig } from '../config/app-config.js';
import { ConsumersGate } from '../queue/consumers-gate.js';
import { WorkerModule } from '../worker.module.js';

const STOP_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/** The worker process: consumes the queues; HTTP only for live/ready (`WORKER_HEALTH_PORT`). */
export async function startWorker(config: AppConfig): Promise<INestApplicationContext> {
  // createApplicationContext runs every init hook (queue consumers start inside it) before shutdown
  // hooks can be enabled: a stop signal arriving meanwhile is held and re-delivered to them.
  let held: NodeJS.Signals | null = null;
  const hold = (signal: NodeJS.Signals) => (held ??= signal);
  for (const signal of STOP_SIGNALS) process.on(signal, hold);
  const app = await NestFactory.createApplicationContext(await WorkerModule.forRoot(config), {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  app.get(ConsumersGate).open();
  app.enableShutdownHooks();
  for (const signal of STOP_SIGNALS) process.off(signal, hold);
  if (held !== null) process.kill(process.pid, held);
  return app;
}
