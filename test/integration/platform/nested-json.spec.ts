import { apiOperations, describeOperation, type ApiOperation } from '../../support/openapi-routes';
import { RouteFixtures } from '../../support/route-fixtures';
import { auth } from '../../support/runs/run-helpers';
import { TestContext } from '../../support/test-app';

const arrayBomb = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objectBomb = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('deeply nested JSON bodies', () => {
  let ctx: TestContext;
  let fixtures: RouteFixtures;
  let bodyRoutes: ApiOperation[];

  beforeAll(async () => {
    ctx = await TestContext.start();
    fixtures = await RouteFixtures.create(ctx);
    bodyRoutes = (await apiOperations(ctx)).filter((op) => op.jsonBody !== null);
  });
  afterAll(() => ctx?.close());

  const post = (path: string, raw: string) =>
    ctx.http.post(path).set('Content-Type', 'application/json').send(raw);

  it('refuses ~300 KB of nested arrays or objects on the login route with 400 naming the body', async () => {
    for (const raw of [arrayBomb(150_000), objectBomb(50_000)]) {
      expect(raw.length).toBeGreaterThan(290_000);
      const res = await post('/api/auth/token', raw);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'common.validation_failed',
        details: { fields: [{ field: 'body' }] },
      });
      expect(res.body.request_id).toBe(res.headers['x-request-id']);
    }
  });

  it('refuses a nesting bomb on every route with a JSON body, whoever calls', async () => {
    expect(bodyRoutes.length).toBeGreaterThan(5);
    for (const op of bodyRoutes) {
      for (const raw of [arrayBomb(100_000), `{"username":${objectBomb(20_000)}}`]) {
        const res = await ctx.http[op.method](fixtures.pathOf(op))
          .set(auth(fixtures.superadmin))
          .set('Content-Type', 'application/json')
          .send(raw);
        expect({ route: describeOperation(op), status: res.status, code: res.body.code }).toEqual({
          route: describeOperation(op),
          status: 400,
          code: 'common.validation_failed',
        });
      }
    }
  });

  it('parses a body nested exactly 64 deep and refuses 65', async () => {
    const at = (depth: number) =>
      post('/api/auth/token', `{"username":"a","password":"b","x":${arrayBomb(depth - 1)}}`);
    const deepest = await at(64);
    // Past the parser: the validation pipe refuses the unknown field `x`, not the nesting.
    expect(deepest.status).toBe(400);
    expect(deepest.body.details.fields.map((f: { field: string }) => f.field)).toEqual(['x']);
    const tooDeep = await at(65);
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.details.fields).toEqual([
      { field: 'body', messages: ['JSON nesting deeper than 64 levels is not accepted'] },
    ]);
  });

  it('does not count brackets inside strings, escaped quotes included', async () => {
    const password = `"\\"${'[{'.repeat(100)}`;
    const res = await post('/api/auth/token', `{"username":"nobody","password":${password}"}`);
    // A normal failed login: the body was parsed and the password compared.
    expect(res.status).toBe(401);
  });

  it('checks bodies in another UTF charset too', async () => {
    const send = (text: string) =>
      ctx.http
        .post('/api/auth/token')
        .set('Content-Type', 'application/json; charset=utf-16le')
        .serialize((body: Buffer) => body as unknown as string)
        .send(Buffer.from(text, 'utf16le'));
    const deep = await send(`{"username":"nobody","password":"x","y":${arrayBomb(1_000)}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.details.fields[0].field).toBe('body');
    expect((await send('{"username":"nobody","password":"[[[["}')).status).toBe(401);
  });
});
