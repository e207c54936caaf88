import { hostileBodies } from '../../support/hostile-bodies';
import { apiOperations, describeOperation, type ApiOperation } from '../../support/openapi-routes';
import { RouteFixtures } from '../../support/route-fixtures';
import { auth } from '../../support/runs/run-helpers';
import { TestContext } from '../../support/test-app';

interface Failure {
  request: string;
  case: string;
  status: number;
  body: unknown;
}

const ENVELOPE_KEYS = ['code', 'details', 'message', 'request_id', 'status_code'];

// Multipart routes (file uploads) have their own tests; every other write route is enumerated from Swagger.
describe('hostile bodies on every write route', () => {
  let ctx: TestContext;
  let fixtures: RouteFixtures;
  let writeRoutes: ApiOperation[];

  beforeAll(async () => {
    ctx = await TestContext.start();
    fixtures = await RouteFixtures.create(ctx);
    writeRoutes = (await apiOperations(ctx))
      .filter((op) => op.method !== 'get' && !op.multipart)
      // Deletes last: the rows they remove are the path ids of the other routes.
      .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
  });
  afterAll(() => ctx?.close());

  it('never answers 5xx, always answers errors in the envelope, and never pollutes Object.prototype', async () => {
    expect(writeRoutes.length).toBeGreaterThan(10);
    const serverErrors: Failure[] = [];
    const notEnvelopes: Failure[] = [];
    let sent = 0;
    for (const op of writeRoutes) {
      const request = describeOperation(op);
      for (const { label, raw } of hostileBodies(op.jsonBody, fixtures.referenceFields)) {
        const res = await ctx.http[op.method](fixtures.pathOf(op))
          .set(auth(fixtures.superadmin))
          .set('Content-Type', 'application/json')
          .timeout(15_000)
          .send(raw)
          .catch((error: Error & { timeout?: number }) => {
            if (error.timeout === undefined) throw error;
            return null;
          });
        sent++;
        if (res === null) {
          serverErrors.push({ request, case: label, status: 0, body: 'no answer within 15 s' });
          continue;
        }
        const failure = { request, case: label, status: res.status, body: res.body as unknown };
        if (res.status >= 500) serverErrors.push(failure);
        const keys = Object.keys((res.body ?? {}) as object).sort();
        if (res.status >= 400 && JSON.stringify(keys) !== JSON.stringify(ENVELOPE_KEYS))
          notEnvelopes.push(failure);
      }
    }
    console.log(
      `write-route fuzz: ${sent} requests over ${writeRoutes.length} routes, ${serverErrors.length} 5xx`,
    );
    expect(sent).toBeGreaterThan(500);
    expect(serverErrors).toEqual([]);
    expect(notEnvelopes).toEqual([]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    // Over a thousand requests, a few of them megabyte-sized, on a shared 2-core machine.
  }, 300_000);
});
