import type { TestContext } from './test-app';

/** The subset of OpenAPI 3 schema this project's Swagger document uses. */
export interface JsonSchema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  pattern?: string;
  minLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

interface OpenApiDocument {
  paths: Record<string, Record<string, RawOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

interface RawOperation {
  parameters?: { name: string; in: string }[];
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema: JsonSchema }>; 'x-error-codes'?: string[] }
  >;
}

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ApiOperation {
  method: HttpMethod;
  /** OpenAPI form: `/api/threads/{id}`. */
  path: string;
  queryParams: string[];
  /** Path parameters in the order the path names them. */
  pathParams: string[];
  /** The JSON request body's schema with `$ref`/`allOf` resolved, `null` when the route declares none. */
  jsonBody: JsonSchema | null;
  multipart: boolean;
  /** The JSON schema of the success response (200/201/202) with `$ref`/`allOf` resolved, if documented. */
  okBody: JsonSchema | null;
  /** The documented error codes by status (`x-error-codes` of each error response). */
  errorCodes: Record<string, string[]>;
  /** Whether the route takes a bearer token. */
  secured: boolean;
}

const METHODS: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * Every operation of the running app, read from its Swagger document (built from the controllers), so a
 * route added later is covered by the tests that enumerate them without editing a list.
 */
export async function apiOperations(ctx: TestContext): Promise<ApiOperation[]> {
  const res = await ctx.http.get('/api/docs-json');
  if (res.status !== 200) throw new Error(`no Swagger document: ${res.status}`);
  const doc = res.body as OpenApiDocument;
  const resolve = (schema: JsonSchema): JsonSchema => resolveSchema(doc, schema);
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    METHODS.filter((method) => operations[method] !== undefined).map((method) => {
      const operation = operations[method];
      const content = operation.requestBody?.content ?? {};
      const json = content['application/json'];
      const responses = operation.responses ?? {};
      const ok = ['200', '201', '202']
        .map((status) => responses[status]?.content?.['application/json'])
        .find((body) => body !== undefined);
      return {
        method,
        path,
        queryParams: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        pathParams: (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        jsonBody: json === undefined ? null : resolve(json.schema),
        multipart: content['multipart/form-data'] !== undefined,
        okBody: ok === undefined ? null : resolve(ok.schema),
        errorCodes: Object.fromEntries(
          Object.entries(responses).flatMap(([status, response]) =>
            response['x-error-codes'] === undefined ? [] : [[status, response['x-error-codes']]],
          ),
        ),
        secured: (operation.security ?? []).length > 0,
      };
    }),
  );
}

function resolveSchema(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  if (schema.$ref !== undefined) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return resolveSchema(doc, doc.components.schemas[name] ?? {});
  }
  if (schema.allOf !== undefined && schema.allOf.length === 1) {
    return resolveSchema(doc, { ...schema, allOf: undefined, ...schema.allOf[0] });
  }
  if (schema.properties === undefined) return schema;
  return {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [name, resolveSchema(doc, property)]),
    ),
  };
}

export const describeOperation = (op: ApiOperation) => `${op.method.toUpperCase()} ${op.path}`;
