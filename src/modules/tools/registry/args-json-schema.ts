import { z } from 'zod';
import { JsonSchemaArgs } from './json-schema-args.js';
import type { ToolMetadata } from './tool-metadata.js';

const cache = new WeakMap<object, Record<string, unknown>>();

/**
 * The JSON Schema of a tool's arguments (what models and clients see). Computed once per zod schema;
 * a JSON Schema (tools from MCP servers) is given as its author wrote it. Callers get a deep copy.
 */
export function argsJsonSchema(schema: ToolMetadata['schema']): Record<string, unknown> {
  if (schema instanceof JsonSchemaArgs) return structuredClone(schema.jsonSchema);
  let json = cache.get(schema);
  if (json === undefined) {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
    cache.set(schema, json);
  }
  return structuredClone(json);
}
