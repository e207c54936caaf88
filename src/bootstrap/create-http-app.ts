import { RequestMethod, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from '../app.module.js';
import type { AppConfig } from '../config/app-config.js';
import { GlobalExceptionFilter } from '../common/errors/index.js';
import { jsonBodyParser } from '../common/http/json-body-parser.js';
import { singleValuedQuery } from '../common/http/single-valued-query.js';
import { storableUrl } from '../common/http/storable-url.js';
import { requestContextMiddleware } from '../common/request-id/request-context.js';
import { requestIdMiddleware } from '../common/request-id/request-id.js';
import { createValidationPipe } from '../common/validation/validation.pipe.js';
import { KNOWLEDGE_MCP_PATH } from '../modules/knowledge/index.js';
import { METRICS_ROUTE } from '../observability/metrics/index.js';
import { ConsumersGate } from '../queue/consumers-gate.js';
import { defaultConsoleDir, serveConsole } from './serve-console.js';
import { setupSwagger } from './swagger.js';

/**
 * The HTTP application exactly as production runs it; tests boot it through here too
 * (`extraModules` lets them mount probe routes next to the real ones).
 */
export async function createHttpApp(
  config: AppConfig,
  options: { extraModules?: Type[] } = {},
): Promise<NestExpressApplication> {
  const root = AppModule.forRoot(config);
  root.imports = [...(root.imports ?? []), ...(options.extraModules ?? [])];
  const app = await NestFactory.create<NestExpressApplication>(root, {
    bodyParser: false,
    bufferLogs: true,
    forceCloseConnections: true,
  });
  app.useLogger(app.get(Logger));
  app.get(ConsumersGate).open();
  app.set('trust proxy', config.http.trustProxy);
  app.disable('x-powered-by');
  // node's querystring: no `a[b]=` objects; repeated keys become arrays, which singleValuedQuery refuses.
  app.set('query parser', 'simple');
  app.use(requestIdMiddleware);
  app.use(jsonBodyParser(config.http.bodyLimitBytes));
  app.use(singleValuedQuery);
  app.use(storableUrl);
  app.use(requestContextMiddleware);
  const consoleFiles = serveConsole(defaultConsoleDir());
  if (consoleFiles) app.use(consoleFiles);
  // The builtin knowledge MCP endpoint speaks MCP, not the REST API: it lives at `/mcp/knowledge`; a
  // Prometheus scraper asks `/metrics`.
  app.setGlobalPrefix('api', {
    exclude: [
      { path: KNOWLEDGE_MCP_PATH, method: RequestMethod.ALL },
      { path: METRICS_ROUTE, method: RequestMethod.GET },
    ],
  });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new GlobalExceptionFilter());
  app.enableShutdownHooks();
  setupSwagger(app);
  return app;
}
