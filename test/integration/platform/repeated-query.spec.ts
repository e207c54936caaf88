import { randomUUID } from 'node:crypto';
import { apiOperations, describeOperation, type ApiOperation } from '../../support/openapi-routes';
import { RouteFixtures } from '../../support/route-fixtures';
import { auth } from '../../support/runs/run-helpers';
import { TestContext, type TestUser } from '../../support/test-app';

/** Asked of every GET route even where not declared: the pagination fields and the SSE cursor. */
const ALWAYS_TRIED = ['after', 'limit', 'cursor'];

/** Two values each of which the field would accept alone, so only the repetition is wrong. */
function twoValues(field: string): [string, string] {
  const samples: Record<string, [string, string]> = {
    after: ['1', '2'],
    limit: ['1', '2'],
    include_subagents: ['true', 'false'],
    category: ['builtin', 'builtin'],
    since: ['2020-01-01T00:00:00Z', '2021-01-01T00:00:00Z'],
    until: ['2030-01-01T00:00:00Z', '2031-01-01T00:00:00Z'],
  };
  if (field.endsWith('_id')) return [randomUUID(), randomUUID()];
  return samples[field] ?? ['a', 'b'];
}

interface Outcome {
  request: string;
  status: number;
  code: unknown;
  fields: unknown;
}

describe('query parameters are one scalar each', () => {
  let ctx: TestContext;
  let fixtures: RouteFixtures;
  let getRoutes: ApiOperation[];

  beforeAll(async () => {
    ctx = await TestContext.start();
    fixtures = await RouteFixtures.create(ctx);
    getRoutes = (await apiOperations(ctx)).filter((op) => op.method === 'get');
  });
  afterAll(() => ctx?.close());

  const callAs = async (actor: TestUser, op: ApiOperation, query: string): Promise<Outcome> => {
    const url = `${fixtures.pathOf(op)}?${query}`;
    const request = `${actor.role} ${describeOperation(op)}?${query}`;
    // A route that ignored the query could start a stream: a bounded wait records that as a failure.
    const res = await ctx.http
      .get(url)
      .set(auth(actor))
      .timeout(5_000)
      .catch((error: Error & { timeout?: number }) => {
        if (error.timeout === undefined) throw error;
        return null;
      });
    if (res === null) return { request, status: 0, code: 'no answer (a stream started?)', fields: undefined };
    const body = res.body as { code?: unknown; details?: { fields?: { field: string }[] } };
    return {
      request,
      status: res.status,
      code: body.code,
      fields: body.details?.fields?.map((f) => f.field),
    };
  };

  const refusedNaming = (field: string) => (outcome: Outcome) =>
    !(outcome.status === 400 && outcome.code === 'common.validation_failed') ||
    JSON.stringify(outcome.fields) !== JSON.stringify([field]);

  it('refuses a query field given twice with 400 naming it, on every GET route and for every role', async () => {
    expect(getRoutes.length).toBeGreaterThan(15);
    const failures: Outcome[] = [];
    let sent = 0;
    for (const op of getRoutes) {
      for (const field of new Set([...op.queryParams, ...ALWAYS_TRIED])) {
        const [first, second] = twoValues(field);
        const query = `${field}=${encodeURIComponent(first)}&${field}=${encodeURIComponent(second)}`;
        for (const actor of [fixtures.superadmin, fixtures.user]) {
          const outcome = await callAs(actor, op, query);
          sent++;
          if (refusedNaming(field)(outcome)) failures.push(outcome);
        }
      }
    }
    expect(sent).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });

  it('refuses bracket syntax (arrays and objects) in query keys', async () => {
    const failures: Outcome[] = [];
    for (const op of getRoutes) {
      for (const query of ['limit[]=1', 'cursor[a]=b', `${op.queryParams[0] ?? 'after'}[0]=1`]) {
        const outcome = await callAs(fixtures.superadmin, op, query);
        if (refusedNaming(query.slice(0, query.indexOf('=')))(outcome)) failures.push(outcome);
      }
    }
    expect(failures).toEqual([]);
  });

  it('still answers a field given once', async () => {
    const actor = auth(fixtures.superadmin);
    const threads = await ctx.http.get('/api/threads?limit=1').set(actor);
    expect(threads.status).toBe(200);
    expect(threads.body.items).toHaveLength(1);
    const tools = await ctx.http.get('/api/system/tools?category=builtin&tag=%E6%96%87%E4%BB%B6').set(actor);
    expect(tools.status).toBe(200);
    expect(tools.body.items.length).toBeGreaterThan(0);
    const encodedComma = await ctx.http.get('/api/threads?cursor=a%2Cb&limit=1').set(actor);
    expect(encodedComma.body.code).not.toBe('common.internal_error');
  });
});
