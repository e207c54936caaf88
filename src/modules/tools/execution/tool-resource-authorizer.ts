import type { ToolResourceKind } from '../registry/tool-metadata.js';
import type { ToolExecutionContext } from './tool-execution-context.js';

/**
 * Checks one concrete target against the caller; throws a `DomainError` (e.g. `workspace.path_not_allowed`,
 * `knowledge.kb_not_found`) to refuse. Modules owning a resource kind register one at startup.
 */
export interface ToolResourceAuthorizer {
  readonly kind: ToolResourceKind;
  authorize(value: unknown, access: 'read' | 'write', context: ToolExecutionContext): Promise<void>;
}
