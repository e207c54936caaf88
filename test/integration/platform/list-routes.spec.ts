import { TestMcpServer } from '../../support/mcp/mcp-test-server';
import { apiOperations, describeOperation, type ApiOperation } from '../../support/openapi-routes';
import { RouteFixtures } from '../../support/route-fixtures';
import { auth } from '../../support/runs/run-helpers';
import { skillMd } from '../../support/skills';
import { TestContext, type TestUser } from '../../support/test-app';

/** The tool catalog is answered whole (`{items}`): clients filter it, never page it. */
const CATALOG = 'GET /api/system/tools';
/** Lists answered whole: the catalog, and the user directory (a search with at most 20 answers). */
const WHOLE = new Set([CATALOG, 'GET /api/users/directory']);

interface Page {
  items: unknown[];
  next_cursor?: string | null;
}

const isList = (body: unknown): body is Page =>
  typeof body === 'object' && body !== null && Array.isArray((body as Page).items);

describe('every list route pages with limit and cursor', () => {
  let ctx: TestContext;
  let fixtures: RouteFixtures;
  let mcp: TestMcpServer;
  let getRoutes: ApiOperation[];

  beforeAll(async () => {
    ctx = await TestContext.start({ ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1' });
    fixtures = await RouteFixtures.create(ctx);
    const admin = fixtures.superadmin;
    // At least two rows behind each list the contract names, so paging is exercised and not only shaped.
    mcp = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [{ name: 'delta' }, { name: 'alpha' }, { name: 'charlie' }, { name: 'bravo' }],
    });
    const server = await ctx.http
      .post('/api/system/mcp-servers')
      .set(auth(admin))
      .send({ slug: 'list-fixture', name: 'List fixture', transport: 'streamable_http', url: mcp.url });
    expect(server.status).toBe(201);
    fixtures.usePathId('/api/system/mcp-servers/', 'list-fixture');
    await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('list-second') });
    // A personal skill shadowing a shared one: both rows carry the same slug.
    await ctx.newPersonalSkill(admin, { 'SKILL.md': skillMd('route-fixture') });
    const kbPath = fixtures.pathOf({ path: '/api/knowledge-bases/{kb_id}/files' } as ApiOperation);
    for (const name of ['second.md', 'third.md']) {
      const file = await ctx.http
        .post(kbPath)
        .set(auth(admin))
        .attach('file', Buffer.from(`# ${name}\n\ntext\n`), name);
      expect(file.status).toBe(201);
    }
    getRoutes = (await apiOperations(ctx)).filter((op) => op.method === 'get');
  });
  afterAll(async () => {
    await ctx?.close();
    await mcp?.close();
  });

  const get = (actor: TestUser, url: string) => ctx.http.get(url).set(auth(actor)).timeout(10_000);

  /** Follows `next_cursor` with `limit=1` to the end; the pages in order. */
  async function walk(actor: TestUser, path: string): Promise<Page[]> {
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? 'limit=1' : `limit=1&cursor=${encodeURIComponent(cursor)}`;
      const res = await get(actor, `${path}?${query}`);
      if (res.status !== 200) throw new Error(`${path}?${query} → ${res.status} ${JSON.stringify(res.body)}`);
      const page = res.body as Page;
      pages.push(page);
      cursor = page.next_cursor ?? null;
    } while (cursor !== null && pages.length < 100);
    return pages;
  }

  it('documents {items, next_cursor} with limit and cursor on every list route but those answered whole, and serves it', async () => {
    const failures: string[] = [];
    const paged: string[] = [];
    const lists: string[] = [];
    for (const op of getRoutes) {
      const route = describeOperation(op);
      const path = fixtures.pathOf(op);
      const whole = await get(fixtures.superadmin, path).catch(() => null);
      const documentedList = op.okBody?.properties?.items !== undefined;
      if (!documentedList) {
        if (whole !== null && isList(whole.body))
          failures.push(`${route}: answers a list its Swagger does not show`);
        continue;
      }
      lists.push(route);
      if (WHOLE.has(route)) {
        if (op.okBody?.properties?.next_cursor !== undefined)
          failures.push(`${route}: a list answered whole is not paged`);
        continue;
      }
      if (op.okBody?.properties?.next_cursor === undefined)
        failures.push(`${route}: next_cursor not documented`);
      for (const param of ['limit', 'cursor']) {
        if (!op.queryParams.includes(param))
          failures.push(`${route}: query parameter ${param} not documented`);
      }
      if (whole === null || whole.status !== 200 || !isList(whole.body)) {
        failures.push(`${route}: ${whole?.status ?? 'no answer'} ${JSON.stringify(whole?.body)}`);
        continue;
      }
      if (!('next_cursor' in whole.body)) failures.push(`${route}: no next_cursor in the answer`);
      for (const limit of ['0', '201']) {
        const refused = await get(fixtures.superadmin, `${path}?limit=${limit}`);
        if (refused.status !== 400 || refused.body.code !== 'common.validation_failed')
          failures.push(`${route}?limit=${limit}: ${refused.status}`);
      }
      const badCursor = await get(fixtures.superadmin, `${path}?cursor=not-a-cursor`);
      if (badCursor.status !== 400) failures.push(`${route}?cursor=not-a-cursor: ${badCursor.status}`);
      if (whole.body.items.length < 2) continue;
      const pages = await walk(fixtures.superadmin, path).catch((error: Error) => {
        failures.push(`${route}: ${error.message}`);
        return [];
      });
      if (pages.some((page) => page.items.length !== 1)) failures.push(`${route}: limit=1 not honoured`);
      const walked = pages.flatMap((page) => page.items);
      if (JSON.stringify(walked) !== JSON.stringify(whole.body.items))
        failures.push(`${route}: the pages do not add up to the whole list`);
      paged.push(route);
    }
    expect(failures).toEqual([]);
    expect(lists).toContain(CATALOG);
    // The lists the contract names are exercised with several pages, not only shaped.
    expect(paged).toEqual(
      expect.arrayContaining([
        'GET /api/skills',
        'GET /api/system/mcp-servers',
        'GET /api/system/mcp-servers/{slug}/tools',
        'GET /api/knowledge-bases/{kb_id}/files',
        'GET /api/agents',
        'GET /api/users',
      ]),
    );
  }, 120_000);

  it('pages skills by slug with a personal skill before the shared one it shadows', async () => {
    const pages = await walk(fixtures.superadmin, '/api/skills');
    const rows = pages.flatMap((page) => page.items as { slug: string; source: string }[]);
    const shadowed = rows.filter((row) => row.slug === 'route-fixture').map((row) => row.source);
    expect(shadowed).toEqual(['personal', 'shared']);
    const slugs = rows.map((row) => row.slug);
    expect(slugs).toEqual([...slugs].sort());
    expect(slugs).toContain('list-second');
  });

  it("pages a server's tools by name", async () => {
    const pages = await walk(fixtures.superadmin, '/api/system/mcp-servers/list-fixture/tools');
    expect(pages.map((page) => (page.items as { name: string }[]).map((tool) => tool.name))).toEqual([
      ['alpha'],
      ['bravo'],
      ['charlie'],
      ['delta'],
    ]);
    expect(pages.at(-1)!.next_cursor).toBeNull();
  });

  it('never pages a disabled MCP server to a normal user, whose pages hold summaries only', async () => {
    const admin = fixtures.superadmin;
    await ctx.http
      .post('/api/system/mcp-servers')
      .set(auth(admin))
      .send({ slug: 'list-hidden', name: 'Hidden', transport: 'streamable_http', url: mcp.url })
      .expect(201);
    await ctx.http
      .put('/api/system/mcp-servers/list-hidden/status')
      .set(auth(admin))
      .send({ enabled: false })
      .expect(200);
    const serversOf = (pages: Page[]) =>
      pages.flatMap((page) => page.items as { slug: string; enabled: boolean }[]);
    const adminServers = serversOf(await walk(admin, '/api/system/mcp-servers'));
    expect(adminServers.map((s) => s.slug)).toEqual(expect.arrayContaining(['list-fixture', 'list-hidden']));
    const userPages = await walk(fixtures.user, '/api/system/mcp-servers');
    const userSlugs = serversOf(userPages).map((s) => s.slug);
    expect(userSlugs).toContain('list-fixture');
    expect(userSlugs).not.toContain('list-hidden');
    expect(userSlugs).toEqual(adminServers.filter((s) => s.enabled).map((s) => s.slug));
    for (const item of userPages.flatMap((page) => page.items)) expect(item).not.toHaveProperty('url');
  });
});
