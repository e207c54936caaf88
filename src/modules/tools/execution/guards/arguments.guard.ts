import { JsonSchemaArgs } from '../../registry/json-schema-args.js';
import { ToolsErrors } from '../../tools.errors.js';
import type { ToolCallScope, ToolGuard } from '../tool-call-scope.js';

/**
 * Validates the arguments against the tool's schema (zod, or the JSON Schema of an MCP server's tool)
 * and keeps the parsed value. A failure is a tool error the model can correct, never an exception that
 * fails the run, and the handler (for an MCP tool: the server) never sees the call.
 */
export class ArgumentsGuard implements ToolGuard {
  canActivate(scope: ToolCallScope): void {
    const schema = scope.tool?.metadata.schema;
    if (schema === undefined) {
      scope.args = scope.call.args;
      return;
    }
    if (schema instanceof JsonSchemaArgs) {
      const issues = schema.check(scope.call.args);
      if (issues.length > 0) throw ToolsErrors.invalidArguments(scope.call.name, issues);
      scope.args = scope.call.args;
      return;
    }
    const parsed = schema.safeParse(scope.call.args);
    if (!parsed.success) {
      throw ToolsErrors.invalidArguments(
        scope.call.name,
        parsed.error.issues.map((issue) => ({
          path: issue.path.join('.') || '(root)',
          message: issue.message,
        })),
      );
    }
    scope.args = parsed.data;
  }
}
