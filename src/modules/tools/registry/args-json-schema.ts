import { z } from 'zod';

const cache = new WeakMap<object, Record<string, unknown>>();

export function isZodSchema(schema: unknown): schema is z.ZodType {
  return typeof schema === 'object' && schema !== null && '_zod' in schema;
}

/**
 * The JSON Schema of a tool's arguments (what models and clients see). Computed once per schema
 * object; a schema that already is JSON Schema (tools from MCP servers) is passed through.
 * Callers get a deep copy.
 */
export function argsJsonSchema(schema: unknown): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null) return { type: 'object', properties: {} };
  let json = cache.get(schema);
  if (json === undefined) {
    json = isZodSchema(schema)
      ? z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })
      : (schema as Record<string, unknown>);
    cache.set(schema, json);
  }
  return structuredClone(json);
}
