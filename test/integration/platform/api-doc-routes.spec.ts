import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { apiOperations, describeOperation } from '../../support/openapi-routes';
import { TestContext } from '../../support/test-app';

/**
 * `docs/api.md` is the contract clients read: every route it names must be one the service serves
 * (checked against the Swagger document the app builds from its controllers), and every route the
 * service serves must be in it.
 */
const API_DOC = path.resolve(__dirname, '../../../docs/api.md');

/** Routes served outside the Swagger document (the docs themselves, the MCP endpoint): asked directly. */
const OUTSIDE_SWAGGER = ['GET /api/docs', 'GET /api/docs-json', 'POST /mcp/knowledge'];

/** `GET /api/threads/:id` and `{id}` alike become `GET /api/threads/{}`; a query string is dropped. */
const normalise = (method: string, route: string) =>
  `${method.toUpperCase()} ${route
    .replace(/[?#].*$/, '')
    .replace(/\/:[A-Za-z_]+/g, '/{}')
    .replace(/\{[A-Za-z_]*\}/g, '{}')
    .replace(/\/$/, '')}`;

/** Every `METHOD /path` (or `METHOD …/path`) the document names; `GET/PATCH/DELETE /path` names three. */
function documentedRoutes(text: string): string[] {
  const found = new Set<string>();
  const mention = /\b((?:GET|POST|PUT|PATCH|DELETE)(?:\/(?:GET|POST|PUT|PATCH|DELETE))*)\s+([/…][^\s`|),]*)/g;
  for (const [, methods, route] of text.matchAll(mention)) {
    for (const method of methods.split('/')) found.add(normalise(method, route));
  }
  return [...found].sort();
}

describe('docs/api.md names the routes the service serves', () => {
  let ctx: TestContext;
  let served: Set<string>;
  let documented: string[];

  beforeAll(async () => {
    // With a metrics token, so that `GET /metrics` (mounted only then) is in the document too.
    ctx = await TestContext.start({ METRICS_TOKEN: 'metrics-token-for-the-api-docs' });
    const operations = await apiOperations(ctx);
    served = new Set(operations.map((op) => normalise(op.method, op.path)));
    documented = documentedRoutes(readFileSync(API_DOC, 'utf8'));
  });
  afterAll(() => ctx?.close());

  it('reads routes from the document, in every area', () => {
    expect(documented.length).toBeGreaterThan(60);
    expect(documented).toEqual(
      expect.arrayContaining(['POST /api/auth/token', 'GET /api/runs/{}/events', 'PUT /api/skills/{}/files']),
    );
  });

  it('names every route with its full path', () => {
    const partial = documented.filter(
      (route) => !/^[A-Z]+ \/(api|mcp)\//.test(route) && route !== 'GET /metrics',
    );
    expect(partial).toEqual([]);
  });

  it('names only routes that exist in the Swagger document', () => {
    const unknown = documented.filter((route) => !served.has(route) && !OUTSIDE_SWAGGER.includes(route));
    expect(unknown).toEqual([]);
  });

  it('documents every route of the Swagger document', async () => {
    const operations = await apiOperations(ctx);
    const missing = operations
      .filter((op) => !documented.includes(normalise(op.method, op.path)))
      .map(describeOperation);
    expect(missing).toEqual([]);
  });

  it('names routes outside Swagger that the service answers', async () => {
    const answers = await Promise.all(
      OUTSIDE_SWAGGER.filter((route) => documented.includes(route)).map(async (route) => {
        const [method, url] = route.split(' ');
        const res = method === 'POST' ? await ctx.http.post(url).send({}) : await ctx.http.get(url);
        return { route, status: res.status };
      }),
    );
    expect(answers.filter(({ status }) => status === 404)).toEqual([]);
    expect(answers.map(({ route }) => route)).toEqual(OUTSIDE_SWAGGER);
  });
});
