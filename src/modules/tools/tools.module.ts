import { Module } from '@nestjs/common';
import { ToolResourceAuthorizers } from './execution/tool-resource-authorizers.js';

/** Tool registry, catalog and the execution boundary. */
@Module({
  providers: [ToolResourceAuthorizers],
  exports: [ToolResourceAuthorizers],
})
export class ToolsModule {}
