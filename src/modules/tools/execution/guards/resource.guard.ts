import { ToolsErrors } from '../../tools.errors.js';
import type { ToolCallScope, ToolGuard } from '../tool-call-scope.js';
import type { ToolResourceAuthorizers } from '../tool-resource-authorizers.js';

/**
 * Checks each concrete target a tool declares (workspace path, KB id, file id) against the caller,
 * through the authorizer the owning module registered. A kind nobody authorizes is refused.
 */
export class ResourceGuard implements ToolGuard {
  constructor(private readonly authorizers: ToolResourceAuthorizers) {}

  async canActivate({ call, tool, args, context }: ToolCallScope): Promise<void> {
    for (const spec of tool?.metadata.resources ?? []) {
      const authorizer = this.authorizers.find(spec.kind);
      if (authorizer === undefined) throw ToolsErrors.resourceUnauthorized(call.name, spec.kind);
      const value = (args as Record<string, unknown> | undefined)?.[spec.arg];
      if (value === undefined) continue; // optional target not given: the handler's default applies
      await authorizer.authorize(value, 'access' in spec ? spec.access : 'read', context);
    }
  }
}
