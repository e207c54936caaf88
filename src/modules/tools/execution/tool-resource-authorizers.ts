import { Injectable } from '@nestjs/common';
import type { ToolResourceKind } from '../registry/tool-metadata.js';
import type { ToolResourceAuthorizer } from './tool-resource-authorizer.js';

/** Authorizers by resource kind; the module that owns a kind registers its authorizer in `onModuleInit`. */
@Injectable()
export class ToolResourceAuthorizers {
  private readonly byKind = new Map<ToolResourceKind, ToolResourceAuthorizer>();

  register(authorizer: ToolResourceAuthorizer): void {
    if (this.byKind.has(authorizer.kind)) {
      throw new Error(`a resource authorizer for "${authorizer.kind}" is already registered`);
    }
    this.byKind.set(authorizer.kind, authorizer);
  }

  find(kind: ToolResourceKind): ToolResourceAuthorizer | undefined {
    return this.byKind.get(kind);
  }
}
