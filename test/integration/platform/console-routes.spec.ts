import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiOperations } from '../../support/openapi-routes';
import { TestContext } from '../../support/test-app';

/**
 * The console calls the API only through `console/src/api/routes.ts`: every call written there must be a
 * route of the service's OpenAPI document, with the same method. A renamed or removed route fails here
 * before a user meets a broken page.
 */
describe('the console client and the OpenAPI document', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await TestContext.start();
  });

  afterAll(() => ctx.close());

  const source = readFileSync(join(__dirname, '../../../console/src/api/routes.ts'), 'utf8');
  const METHOD: Record<string, string> = {
    get: 'get',
    post: 'post',
    patch: 'patch',
    delete: 'delete',
    upload: 'post',
    fetchRaw: 'get',
  };
  const normalize = (path: string) => path.replace(/\$\{[^}]+\}/g, '{}').replace(/\{[a-z_]+\}/g, '{}');

  function consoleCalls(): string[] {
    const calls = [...source.matchAll(/api\.(\w+)(?:<[^(]*>)?\(\s*[`']([^`']+)[`']/g)].map(
      ([, method, path]) => `${METHOD[method] ?? method} ${normalize(path)}`,
    );
    for (const [, path] of source.matchAll(/EventsPath: \([^)]*\) => `([^`]+)`/g))
      calls.push(`get ${normalize(path)}`);
    return calls;
  }

  it('finds the calls it checks (the parser reads the client)', () => {
    const calls = consoleCalls();
    expect(calls.length).toBeGreaterThanOrEqual(20);
    expect(calls).toContain('post /api/runs/{}/approvals');
    expect(calls).toContain('get /api/runs/{}/events');
  });

  it('calls only routes the service documents, with their methods', async () => {
    const documented = new Set(
      (await apiOperations(ctx)).map((operation) => `${operation.method} ${normalize(operation.path)}`),
    );
    expect(consoleCalls().filter((call) => !documented.has(call))).toEqual([]);
  });
});
