import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { declaredErrorCodes, ErrorEnvelopeDto } from '../common/errors/index.js';
import { documentErrorCodes } from '../common/swagger/error-catalog-document.js';

/**
 * Swagger UI at /api/docs and the OpenAPI JSON at /api/docs-json. The document is built at the first
 * request for it (then kept), not during the start: scanning every controller costs the start ~0.1 s.
 */
export function setupSwagger(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Yuxi tool platform API')
    .setDescription(
      'Agent tool platform: identity, tools, skills, MCP servers, knowledge bases and agent runs. ' +
        'Authenticate with `Authorization: Bearer <JWT or API key>`. Every error has the `ErrorEnvelopeDto` shape.',
    )
    .setVersion('1')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      description: 'A JWT from POST /api/auth/token or an API key (yxk_…)',
    })
    .build();
  // Every module is loaded by now, so every declared code is known.
  const document = () =>
    documentErrorCodes(
      SwaggerModule.createDocument(app, config, { extraModels: [ErrorEnvelopeDto] }),
      declaredErrorCodes(),
    );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
}
