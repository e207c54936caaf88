import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';

/**
 * The baseline for the throughput bench: bare Nest on Express (same packages and build as the app),
 * one route, no middleware, no guards, no logger, no database.
 */
@Controller()
class HelloController {
  @Get('hello')
  hello(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [HelloController] })
class HelloModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(HelloModule, { logger: false });
  app.enableShutdownHooks();
  // Same listen call as the app (all interfaces), so the comparison is like for like.
  await app.listen(Number(process.env.PORT ?? 3000));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `hello server failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
