import { Module } from '@nestjs/common';
import type { Request } from 'express';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '../config/app-config.js';
import { requestIdOf } from '../common/request-id/request-id.js';
import { traceLogFields } from '../observability/tracing/index.js';

/** Paths whose values never reach a log line. */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'password',
  '*.password',
  'access_token',
  '*.access_token',
  'key',
  '*.key',
  'api_key',
  '*.api_key',
  'apiKey',
  '*.apiKey',
  'secret',
  '*.secret',
];

/**
 * Structured JSON logs (pino); each request's lines carry its request id and, with tracing on, the
 * `trace_id` and `span_id` of the span they were written in.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        pinoHttp: {
          level: config.logLevel,
          genReqId: (req) => requestIdOf(req as Request),
          customAttributeKeys: { reqId: 'request_id' },
          redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
          // With tracing off no line pays for looking up a span.
          ...(config.tracing.enabled ? { mixin: traceLogFields } : {}),
          // Probes and scrapes come every few seconds: their request lines would drown the rest.
          autoLogging: {
            ignore: (req) => /^(\/api\/health(\/(live|ready))?|\/metrics)(\?|$)/.test(req.url ?? ''),
          },
          serializers: {
            req: (req: { id: unknown; method: string; url: string }) => ({
              id: req.id,
              method: req.method,
              url: req.url.replace(/([?&](?:token|key|api_key)=)[^&]*/gi, '$1[redacted]'),
            }),
          },
        },
      }),
    }),
  ],
})
export class LoggingModule {}
