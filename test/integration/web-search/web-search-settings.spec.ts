import { randomUUID } from 'node:crypto';
import { WebSearchService } from '../../../src/modules/web-search/web-search.service';
import { searchQueryOf } from '../../../src/modules/web-search/tools/web-tools';
import { TestContext, type TestUser } from '../../support/test-app';
import {
  type FakeVendor,
  startFakeDeepSeek,
  startFakeDoubao,
  startFakeTavily,
} from '../../support/web-search/fake-vendors';
import { DEEPSEEK_RESULTS, DOUBAO_RESULTS, TAVILY_RESULTS } from '../../support/web-search/fixtures';

const ENV_TAVILY = 'tvly-env-key-aaaa1111';
const SAVED_TAVILY = 'tvly-saved-key-bbbb2222';
const SAVED_DEEPSEEK = 'sk-saved-deepseek-cccc3333';
const PATH = '/api/system/settings/web-search';

describe('web search settings API', () => {
  let ctx: TestContext;
  let root: TestUser;
  let admin: TestUser;
  let user: TestUser;
  let tavily: FakeVendor;
  let deepseek: FakeVendor;
  let doubao: FakeVendor;

  beforeAll(async () => {
    tavily = await startFakeTavily(SAVED_TAVILY, { results: TAVILY_RESULTS, pages: {} });
    deepseek = await startFakeDeepSeek(SAVED_DEEPSEEK, {
      results: DEEPSEEK_RESULTS,
      pages: { 'https://example.com/': { title: 'Example', content: '# Example Domain' } },
    });
    doubao = await startFakeDoubao('db-unused', { webResults: DOUBAO_RESULTS });
    ctx = await TestContext.start({
      ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1',
      TAVILY_API_KEY: ENV_TAVILY,
      TAVILY_BASE_URL: tavily.baseUrl,
      DEEPSEEK_BASE_URL: deepseek.baseUrl,
      DOUBAO_SEARCH_BASE_URL: doubao.baseUrl,
    });
    root = await ctx.newUser({ role: 'superadmin' });
    admin = await ctx.newUser({ role: 'admin' });
    user = await ctx.newUser({ role: 'user' });
  });
  afterEach(() => [tavily, deepseek, doubao].forEach((f) => f.reset()));
  afterAll(async () => {
    await ctx.close();
    await Promise.all([tavily.close(), deepseek.close(), doubao.close()]);
  });

  const as = (who: TestUser) => ({
    get: () => ctx.http.get(PATH).set('Authorization', `Bearer ${who.token}`),
    put: (body: object) => ctx.http.put(PATH).set('Authorization', `Bearer ${who.token}`).send(body),
    test: (body: object) =>
      ctx.http.post(`${PATH}/test`).set('Authorization', `Bearer ${who.token}`).send(body),
  });
  const row = () =>
    ctx.dataSource.query<Record<string, string | null>[]>(`SELECT * FROM web_search_settings`);

  it('refuses admins and users with 403 and anonymous callers with 401, saving nothing', async () => {
    for (const who of [admin, user]) {
      expect((await as(who).get()).status).toBe(403);
      const put = await as(who).put({ search_provider: 'none' });
      expect(put.status).toBe(403);
      expect(put.body.code).toBe('auth.forbidden');
      expect((await as(who).test({ kind: 'search', provider: 'tavily', api_key: 'x-key-1' })).status).toBe(
        403,
      );
    }
    expect((await ctx.http.get(PATH)).status).toBe(401);
    expect(await row()).toEqual([]);
    expect(tavily.calls()).toHaveLength(0);
  });

  it('shows the defaults with the environment key redacted and its source', async () => {
    const res = await as(root).get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      search_provider: 'auto',
      fetch_provider: 'auto',
      providers: {
        tavily: { has_key: true, key_preview: 'tvly…1111', source: 'env' },
        deepseek: { has_key: false, key_preview: null, source: 'none' },
        doubao: { has_key: false, key_preview: null, source: 'none' },
      },
    });
    expect(JSON.stringify(res.body)).not.toContain(ENV_TAVILY);
  });

  it('saves keys encrypted, shows them redacted, and a saved key wins over the environment', async () => {
    const res = await as(root).put({ api_keys: { tavily: SAVED_TAVILY, deepseek: SAVED_DEEPSEEK } });
    expect(res.status).toBe(200);
    expect(res.body.providers).toEqual({
      tavily: { has_key: true, key_preview: 'tvly…2222', source: 'settings' },
      deepseek: { has_key: true, key_preview: 'sk-s…3333', source: 'settings' },
      doubao: { has_key: false, key_preview: null, source: 'none' },
    });
    expect(JSON.stringify(res.body)).not.toContain(SAVED_TAVILY);
    const [saved] = await row();
    expect(saved.tavily_api_key).toMatch(/^v1:[0-9a-f]{8}:/);
    expect(JSON.stringify(saved)).not.toContain(SAVED_TAVILY);
    expect(JSON.stringify(saved)).not.toContain(SAVED_DEEPSEEK);
    expect(saved.updated_by).toBe(root.id);

    // The tool call right after the save uses the saved key (the fake accepts only that one).
    const outcome = await ctx.app.get(WebSearchService).search(searchQueryOf({ query: 'release' }));
    expect(outcome.provider).toBe('tavily');
    expect(tavily.calls('/search')[0].authorization).toBe(`Bearer ${SAVED_TAVILY}`);
  });

  it('clears a saved key with null, and the environment key applies again', async () => {
    const res = await as(root).put({ api_keys: { tavily: null } });
    expect(res.body.providers.tavily).toEqual({ has_key: true, key_preview: 'tvly…1111', source: 'env' });
    expect(res.body.providers.deepseek.source).toBe('settings');
    expect((await row())[0].tavily_api_key).toBeNull();
    await as(root).put({ api_keys: { tavily: SAVED_TAVILY } });
  });

  it('binds a ciphertext to its column: one moved to another column is not accepted as a key', async () => {
    await ctx.dataSource.query(`UPDATE web_search_settings SET doubao_api_key = tavily_api_key`);
    const res = await as(root).get();
    expect(res.body.providers.doubao).toEqual({ has_key: false, key_preview: null, source: 'none' });
    await ctx.dataSource.query(`UPDATE web_search_settings SET doubao_api_key = NULL`);
  });

  it('uses an explicitly selected provider only: without its key the call fails, no other provider is tried', async () => {
    const res = await as(root).put({ search_provider: 'doubao', fetch_provider: 'deepseek' });
    expect(res.body).toMatchObject({ search_provider: 'doubao', fetch_provider: 'deepseek' });
    await expect(
      ctx.app.get(WebSearchService).search(searchQueryOf({ query: 'release' })),
    ).rejects.toMatchObject({
      code: 'web_search.provider_not_configured',
      details: { capability: 'search', provider: 'doubao' },
    });
    expect(tavily.calls()).toHaveLength(0);
    expect(deepseek.calls()).toHaveLength(0);
    expect(doubao.calls()).toHaveLength(0);
    // fetch: DeepSeek has a saved key, so it is used (not Tavily, which auto would pick first)
    const page = await ctx.app.get(WebSearchService).fetch('https://example.com/');
    expect(page.provider).toBe('deepseek');
    expect(tavily.calls()).toHaveLength(0);
  });

  it('switches a capability off with none', async () => {
    await as(root).put({ search_provider: 'none' });
    await expect(ctx.app.get(WebSearchService).search(searchQueryOf({ query: 'x' }))).rejects.toMatchObject({
      code: 'web_search.not_configured',
    });
    await as(root).put({ search_provider: 'auto', fetch_provider: 'auto' });
  });

  it.each([
    [{ search_provider: 'bing' }, 'search_provider'],
    [{ fetch_provider: 'doubao' }, 'fetch_provider'],
    [{ api_keys: { tavily: '' } }, 'api_keys.tavily'],
    [{ api_keys: { tavily: 'has space' } }, 'api_keys.tavily'],
    [{ api_keys: { tavily: 42 } }, 'api_keys.tavily'],
    [{ api_keys: { bing: 'k' } }, 'api_keys.bing'],
    [{ api_keys: null }, 'api_keys'],
    [{ search_provider: null }, 'search_provider'],
    [{ extra: true }, 'extra'],
  ])('refuses %j with 400 naming the field and changes nothing', async (body, field) => {
    const before = await row();
    const res = await as(root).put(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('common.validation_failed');
    expect(res.body.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await row()).toEqual(before);
  });

  it('tests a draft key with one real call and never saves it', async () => {
    const draft = `tvly-draft-${randomUUID()}`;
    tavily.key = draft;
    try {
      const before = await row();
      const res = await as(root).test({ kind: 'search', provider: 'tavily', api_key: draft, query: 'probe' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, latency_ms: expect.any(Number), result_count: 2 });
      const [call] = tavily.calls('/search');
      expect(call.authorization).toBe(`Bearer ${draft}`);
      expect(call.body.query).toBe('probe');
      expect(await row()).toEqual(before);
      expect((await as(root).get()).body.providers.tavily.key_preview).toBe('tvly…2222');
      // the saved key is untouched and still what the tools use (the fake now refuses it)
      await expect(ctx.app.get(WebSearchService).search(searchQueryOf({ query: 'x' }))).rejects.toMatchObject(
        {
          code: 'web_search.vendor_rejected_key',
        },
      );
    } finally {
      tavily.key = SAVED_TAVILY;
    }
  });

  it('reports a refused draft key as ok:false without the key in the answer', async () => {
    const wrong = 'sk-wrong-draft-9999';
    const res = await as(root).test({ kind: 'search', provider: 'deepseek', api_key: wrong });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, error: { code: 'web_search.vendor_rejected_key' } });
    expect(JSON.stringify(res.body)).not.toContain(wrong);
  });

  it('tests fetch with the effective key; refuses fetch for Doubao and private pages', async () => {
    const ok = await as(root).test({ kind: 'fetch', provider: 'deepseek' });
    expect(ok.body).toEqual({ ok: true, latency_ms: expect.any(Number), content_chars: 16 });
    expect(deepseek.calls('/v1/tools/fetch')[0].authorization).toBe(`Bearer ${SAVED_DEEPSEEK}`);
    const doubaoFetch = await as(root).test({ kind: 'fetch', provider: 'doubao' });
    expect(doubaoFetch.status).toBe(400);
    expect(doubaoFetch.body.code).toBe('web_search.provider_not_supported');
    const privatePage = await as(root).test({ kind: 'fetch', provider: 'deepseek', url: 'http://10.1.2.3/' });
    expect(privatePage.body).toMatchObject({ ok: false, error: { code: 'web_search.url_not_allowed' } });
    const noKey = await as(root).test({ kind: 'search', provider: 'doubao' });
    expect(noKey.body).toMatchObject({ ok: false, error: { code: 'web_search.provider_not_configured' } });
    expect(deepseek.calls('/v1/tools/fetch')).toHaveLength(1);
    expect(doubao.calls()).toHaveLength(0);
  });
});
