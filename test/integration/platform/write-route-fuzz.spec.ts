import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { baseBody, hostileBodies } from '../../support/hostile-bodies';
import { HOSTILE_VALUES, hostileQueryShapes } from '../../support/hostile-urls';
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
    const undocumented = new Set<string>();
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
        const code = (res.body as { code?: string } | null)?.code;
        if (res.status >= 400 && code !== undefined && !(op.errorCodes[res.status] ?? []).includes(code))
          undocumented.add(`${request} ${res.status} ${code}`);
      }
    }
    console.log(
      `write-route fuzz: ${sent} requests over ${writeRoutes.length} routes, ${serverErrors.length} 5xx`,
    );
    expect(sent).toBeGreaterThan(500);
    expect(serverErrors).toEqual([]);
    expect(notEnvelopes).toEqual([]);
    // What a route answered is what its Swagger says it may answer.
    expect([...undocumented]).toEqual([]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    // Over a thousand requests, a few of them megabyte-sized, on a shared 2-core machine.
  }, 300_000);
});

interface RawAnswer {
  status: number;
  body: unknown;
}

/**
 * One request with its path and query sent exactly as written (no re-encoding): the answer's status as
 * soon as its headers arrive (an event stream is then closed), and its body when it is JSON.
 */
function rawRequest(
  port: number,
  method: string,
  path: string,
  token: string,
  body: string | null,
): Promise<RawAnswer | null> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: method.toUpperCase(),
        path,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === null
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
        timeout: 15_000,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (!String(res.headers['content-type'] ?? '').includes('application/json')) {
          res.destroy();
          return resolve({ status, body: null });
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status, body: text === '' ? null : (JSON.parse(text) as unknown) });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => {
      req.destroy();
      resolve(null);
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

/** Asked of every route even where not declared: the pagination fields and the SSE cursor. */
const ALWAYS_TRIED = ['limit', 'cursor', 'after'];

describe('hostile query strings and route params on every route', () => {
  let ctx: TestContext;
  let fixtures: RouteFixtures;
  let routes: ApiOperation[];
  let port: number;

  beforeAll(async () => {
    ctx = await TestContext.start();
    fixtures = await RouteFixtures.create(ctx);
    // Multipart routes too: their path and query are read before any file part.
    routes = (await apiOperations(ctx)).sort(
      (a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'),
    );
    const server = ctx.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => ctx?.close());

  it('never answers 5xx, answers errors in the envelope, and never pollutes Object.prototype', async () => {
    const serverErrors: Failure[] = [];
    const notEnvelopes: Failure[] = [];
    const undocumented = new Set<string>();
    let sent = 0;
    const send = async (op: ApiOperation, path: string, label: string) => {
      const body =
        op.method === 'get' || op.method === 'delete' || op.multipart
          ? null
          : JSON.stringify(baseBody(op.jsonBody ?? {}, fixtures.referenceFields));
      const answer = await rawRequest(port, op.method, path, fixtures.superadmin.token, body);
      sent++;
      const request = `${op.method.toUpperCase()} ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`;
      if (answer === null) {
        serverErrors.push({ request, case: label, status: 0, body: 'no answer within 15 s' });
        return;
      }
      const failure = { request, case: label, status: answer.status, body: answer.body };
      if (answer.status >= 500) serverErrors.push(failure);
      const keys = Object.keys(answer.body ?? {}).sort();
      if (answer.status >= 400 && JSON.stringify(keys) !== JSON.stringify(ENVELOPE_KEYS))
        notEnvelopes.push(failure);
      // What a route answered is what its Swagger says it may answer.
      const code = (answer.body as { code?: string } | null)?.code;
      if (answer.status >= 400 && code !== undefined && !(op.errorCodes[answer.status] ?? []).includes(code))
        undocumented.add(`${describeOperation(op)} ${answer.status} ${code}`);
    };
    for (const op of routes) {
      const path = fixtures.pathOf(op);
      // Query strings: every declared field (and the pagination ones), each hostile value and shape.
      const fields = new Set([...op.queryParams, ...(op.method === 'get' ? ALWAYS_TRIED : [])]);
      for (const field of fields) {
        for (const [label, value] of HOSTILE_VALUES)
          await send(op, `${path}?${field}=${value}`, `${field} = ${label}`);
      }
      for (const [label, query] of hostileQueryShapes([...fields][0] ?? 'limit')) {
        await send(op, `${path}?${query}`, `query ${label}`);
      }
      // Route params: each in turn hostile, the others real rows.
      for (const param of op.pathParams) {
        for (const [label, value] of HOSTILE_VALUES) {
          if (value === '') continue; // an empty segment is another route
          const segments = path.split('/');
          segments[op.path.split('/').indexOf(`{${param}}`)] = value;
          await send(op, segments.join('/'), `:${param} = ${label}`);
        }
      }
    }
    console.log(
      `query/param fuzz: ${sent} requests over ${routes.length} routes, ${serverErrors.length} 5xx`,
    );
    expect(sent).toBeGreaterThan(2_000);
    expect(serverErrors).toEqual([]);
    expect(notEnvelopes).toEqual([]);
    expect([...undocumented]).toEqual([]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  }, 600_000);
});
