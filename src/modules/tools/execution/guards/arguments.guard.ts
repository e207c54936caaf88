import { isZodSchema } from '../../registry/args-json-schema.js';
import { ToolsErrors } from '../../tools.errors.js';
import type { ToolCallScope, ToolGuard } from '../tool-call-scope.js';

/**
 * Validates the arguments against the tool's zod schema and keeps the parsed value. A failure is a tool
 * error the model can correct, never an exception that fails the run. (JSON-Schema tools from MCP
 * servers are validated by their server.)
 */
export class ArgumentsGuard implements ToolGuard {
  canActivate(scope: ToolCallScope): void {
    const schema = scope.tool?.metadata.schema;
    if (!isZodSchema(schema)) {
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
