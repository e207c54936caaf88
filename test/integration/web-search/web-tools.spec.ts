import { randomUUID } from 'node:crypto';
import {
  noRuntimeCheck,
  type ToolExecutionContext,
} from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import { searchQueryOf } from '../../../src/modules/web-search/tools/web-tools';
import { WebSearchService } from '../../../src/modules/web-search/web-search.service';
import { TestContext, type TestUser } from '../../support/test-app';
import {
  type FakeVendor,
  startFakeDeepSeek,
  startFakeDoubao,
  startFakeTavily,
} from '../../support/web-search/fake-vendors';
import { DEEPSEEK_RESULTS, DOUBAO_RESULTS, TAVILY_RESULTS } from '../../support/web-search/fixtures';

const KEYS = {
  tavily: 'tvly-test-0123456789abcdef',
  deepseek: 'sk-ds-0123456789abcdef',
  doubao: 'db-0123456789abcdef',
};

describe('web_search and web_fetch against vendor-shaped servers', () => {
  let ctx: TestContext;
  let executor: ToolExecutor;
  let user: TestUser;
  let tavily: FakeVendor;
  let deepseek: FakeVendor;
  let doubao: FakeVendor;

  beforeAll(async () => {
    tavily = await startFakeTavily(KEYS.tavily, {
      results: TAVILY_RESULTS,
      pages: { 'https://example.com/notes': '# Release notes\n\nVersion 4.0 adds streaming.' },
    });
    deepseek = await startFakeDeepSeek(KEYS.deepseek, {
      results: DEEPSEEK_RESULTS,
      pages: {
        'https://example.com/deepseek-v4': { title: 'DeepSeek V4', content: '# DeepSeek V4\n\nBody.' },
      },
    });
    doubao = await startFakeDoubao(KEYS.doubao, { webResults: DOUBAO_RESULTS });
    ctx = await TestContext.start({
      ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1',
      TAVILY_API_KEY: KEYS.tavily,
      TAVILY_BASE_URL: tavily.baseUrl,
      DEEPSEEK_API_KEY: KEYS.deepseek,
      DEEPSEEK_BASE_URL: deepseek.baseUrl,
      DOUBAO_SEARCH_API_KEY: KEYS.doubao,
      DOUBAO_SEARCH_BASE_URL: doubao.baseUrl,
    });
    executor = ctx.app.get(ToolExecutor);
    user = await ctx.newUser();
  });
  afterEach(() => [tavily, deepseek, doubao].forEach((f) => f.reset()));
  afterAll(async () => {
    await ctx.close();
    await Promise.all([tavily.close(), deepseek.close(), doubao.close()]);
  });

  function context(): ToolExecutionContext {
    return {
      user: { id: user.id, role: user.role, departmentId: user.departmentId },
      runId: randomUUID(),
      threadId: randomUUID(),
      leaseToken: 'lease-1',
      workdir: '/home/gem/user-data/workdir/demo/',
      executableTools: new Set(['web_search', 'web_fetch']),
      visibleTools: new Set(['web_search', 'web_fetch']),
      isSubagent: false,
      verifyAuthorization: noRuntimeCheck,
    };
  }

  async function call(name: string, args: Record<string, unknown>) {
    const result = await executor.execute({ id: `call-${randomUUID()}`, name, args }, context());
    return { ...result, body: JSON.parse(result.content) as Record<string, any> };
  }

  const access = (vendor: FakeVendor) => ({ apiKey: vendor.key, baseUrl: vendor.baseUrl });
  const query = (args: Record<string, unknown>) => searchQueryOf({ query: 'v4 release', ...args });

  it('searches through the first provider with a key (Tavily) and normalizes with score_max', async () => {
    const res = await call('web_search', {
      query: 'release 4.0',
      count: 5,
      sites: ['example.com'],
      time_range: 'OneWeek',
    });
    expect(res.isError).toBe(false);
    expect(res.body).toEqual({
      provider: 'tavily',
      query: 'release 4.0',
      results: [
        {
          title: 'Release notes 4.0',
          url: 'https://example.com/notes',
          summary: 'Version 4.0 adds streaming. [...] Upgrade guide included.',
          snippets: ['Version 4.0 adds streaming.', 'Upgrade guide included.'],
          score: 0.93,
          score_max: 1,
        },
        {
          title: 'News: 4.0 ships',
          url: 'https://news.example.org/4-0',
          summary: 'The 4.0 release shipped on Monday.',
          snippets: ['The 4.0 release shipped on Monday.'],
          score: 0.41,
          score_max: 1,
          published_at: 'Mon, 01 Jun 2026 08:00:00 GMT',
        },
      ],
    });
    const [sent] = tavily.calls('/search');
    expect(sent.authorization).toBe(`Bearer ${KEYS.tavily}`);
    expect(sent.body).toMatchObject({
      query: 'release 4.0',
      max_results: 5,
      include_domains: ['example.com'],
      time_range: 'week',
      include_raw_content: false,
    });
    expect(deepseek.calls()).toHaveLength(0);
    expect(doubao.calls()).toHaveLength(0);
  });

  it('normalizes DeepSeek results: rerank_score on its 0-3 scale, summary falling back to the snippet', async () => {
    const q = query({
      include_content: true,
      content_format: 'markdown',
      block_hosts: ['spam.example'],
      time_range: '2026-01-01..2026-06-30',
    });
    const outcome = await ctx.app.get(WebSearchService).searchWith('deepseek', access(deepseek), q);
    expect(outcome.results).toEqual([
      {
        title: 'DeepSeek V4 model released',
        url: 'https://example.com/deepseek-v4',
        summary: 'DeepSeek has released the V4 model with improved tool calling.',
        snippets: ['DeepSeek V4 is now available.'],
        content: '# DeepSeek V4\n\nFull text.',
        score: 2.4,
        score_max: 3,
        published_at: '2026-06-01T00:00:00+00:00',
      },
      {
        title: 'Forum thread',
        url: 'https://forum.example.net/t/1',
        summary: 'Someone asked about V4.',
        snippets: ['Someone asked about V4.'],
        score: 0.7,
        score_max: 3,
      },
    ]);
    expect(deepseek.calls('/v1/tools/search')[0].body).toEqual({
      query: 'v4 release -site:spam.example after:2026-01-01 before:2026-06-30',
      count: 10,
      need_content: true,
    });
  });

  it('normalizes Doubao results, drops results without a URL and sends its documented body', async () => {
    const q = query({
      count: 3,
      sites: ['gov.cn', 'people.com.cn'],
      block_hosts: ['spam.example'],
      time_range: 'OneDay',
    });
    const outcome = await ctx.app.get(WebSearchService).searchWith('doubao', access(doubao), q);
    expect(outcome.results).toEqual([
      {
        title: '国务院发布新规',
        url: 'https://www.gov.cn/zhengce/1.htm',
        summary: '国务院发布新规，自下月起施行，涉及……',
        snippets: ['新规自下月起施行。'],
        score: 0.87,
        score_max: 1,
        published_at: '2026-06-01T10:00:00+08:00',
      },
    ]);
    const [sent] = doubao.calls('/search_api/web_search');
    expect(sent.authorization).toBe(`Bearer ${KEYS.doubao}`);
    expect(sent.body).toEqual({
      Query: 'v4 release',
      SearchType: 'web',
      Count: 3,
      Filter: {
        NeedUrl: true,
        NeedContent: false,
        Sites: 'gov.cn|people.com.cn',
        BlockHosts: 'spam.example',
      },
      NeedSummary: true,
      TimeRange: 'OneDay',
    });
  });

  it('answers no hits with a successful empty list', async () => {
    const empty = await startFakeDoubao(KEYS.doubao, { webResults: null });
    try {
      const outcome = await ctx.app
        .get(WebSearchService)
        .searchWith('doubao', { apiKey: KEYS.doubao, baseUrl: empty.baseUrl }, query({}));
      expect(outcome).toEqual({ provider: 'doubao', query: 'v4 release', results: [] });
    } finally {
      await empty.close();
    }
    const tavilyEmpty = await call('web_search', { query: 'nothing', count: 1, sites: ['nowhere.example'] });
    expect(tavilyEmpty.isError).toBe(false);
    expect(tavilyEmpty.body.results).toHaveLength(1); // the fake ignores filters: a non-empty success
  });

  it.each([
    [{ query: '' }, 'query'],
    [{ query: 'x'.repeat(101) }, 'query'],
    [{ query: 'ok', count: 0 }, 'count'],
    [{ query: 'ok', count: 51 }, 'count'],
    [{ query: 'ok', count: 2.5 }, 'count'],
    [{ query: 'ok', time_range: 'LastWeek' }, 'time_range'],
    [{ query: 'ok', time_range: '2026-01-01..2026-13-01' }, 'time_range'],
    [{ query: 'ok', time_range: '2026-06-01..2026-01-01' }, 'time_range'],
    [{ query: 'ok', sites: Array.from({ length: 21 }, (_, i) => `s${i}.example.com`) }, 'sites'],
    [{ query: 'ok', sites: ['https://example.com/path'] }, 'sites'],
    [{ query: 'ok', block_hosts: Array.from({ length: 6 }, (_, i) => `b${i}.example.com`) }, 'block_hosts'],
    [{ query: 'ok', content_format: 'html' }, 'content_format'],
    [{ query: 'ok', count: 21 }, 'count'], // valid for the tool, more than Tavily gives: refused, not clamped
  ])('refuses %j before any vendor call', async (args, field) => {
    const res = await call('web_search', args);
    expect(res.isError).toBe(true);
    expect(JSON.stringify(res.body.error)).toContain(field);
    expect(tavily.calls()).toHaveLength(0);
  });

  it('fails a vendor error as a tool error without retrying another provider or showing the key', async () => {
    tavily.failWith(500, { detail: { error: `internal failure for key ${KEYS.tavily}` } });
    const res = await call('web_search', { query: 'release' });
    expect(res.isError).toBe(true);
    expect(res.body.error).toMatchObject({
      code: 'web_search.vendor_failed',
      details: { provider: 'tavily', status: 500 },
    });
    expect(res.content).not.toContain(KEYS.tavily);
    expect(res.content).not.toContain(tavily.baseUrl);
    expect(tavily.calls('/search')).toHaveLength(1);
    expect(deepseek.calls()).toHaveLength(0);
    expect(doubao.calls()).toHaveLength(0);
  });

  it('reports a refused key and a quota failure distinctly', async () => {
    const wrong = await ctx.app
      .get(WebSearchService)
      .searchWith('deepseek', { apiKey: 'sk-wrong-key-000', baseUrl: deepseek.baseUrl }, query({}))
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({ code: 'web_search.vendor_rejected_key' });
    expect(String((wrong as Error).message)).not.toContain('sk-wrong-key-000');
    tavily.failWith(432, { detail: { error: 'This request exceeds your plan' } });
    const quota = await call('web_search', { query: 'release' });
    expect(quota.body.error.code).toBe('web_search.vendor_rate_limited');
  });

  it('turns a Doubao error in ResponseMetadata (with HTTP 200) into a vendor failure', async () => {
    // count 51 bypasses the tool schema here, so the fake answers with its own parameter error
    const error = await ctx.app
      .get(WebSearchService)
      .searchWith('doubao', access(doubao), { ...query({}), count: 51 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'web_search.vendor_failed',
      details: { provider: 'doubao', status: null },
    });
    expect((error as Error).message).toContain('10400 invalid param');
  });

  it('fetches a page as Markdown through Tavily Extract', async () => {
    const res = await call('web_fetch', { url: 'https://example.com/notes#intro' });
    expect(res.isError).toBe(false);
    expect(res.body).toEqual({
      provider: 'tavily',
      url: 'https://example.com/notes',
      title: '',
      content: '# Release notes\n\nVersion 4.0 adds streaming.',
      content_chars: 44,
    });
    expect(tavily.calls('/extract')[0].body).toEqual({
      urls: ['https://example.com/notes'],
      extract_depth: 'basic',
      format: 'markdown',
      include_images: false,
    });
  });

  it('fails a fetch without usable content explicitly (Tavily failed_results, DeepSeek empty body)', async () => {
    const res = await call('web_fetch', { url: 'https://example.com/missing' });
    expect(res.isError).toBe(true);
    expect(res.body.error).toMatchObject({
      code: 'web_search.fetch_no_content',
      details: { provider: 'tavily' },
    });
    expect(res.body.error.message).toContain('Failed to fetch url');
    const service = ctx.app.get(WebSearchService);
    await expect(
      service.fetchWith('deepseek', access(deepseek), 'https://example.com/empty'),
    ).rejects.toMatchObject({
      code: 'web_search.fetch_no_content',
    });
    await expect(
      service.fetchWith('deepseek', access(deepseek), 'https://example.com/deepseek-v4'),
    ).resolves.toEqual({
      provider: 'deepseek',
      url: 'https://example.com/deepseek-v4',
      title: 'DeepSeek V4',
      content: '# DeepSeek V4\n\nBody.',
    });
  });

  it.each([
    'file:///etc/passwd',
    'ftp://example.com/x',
    'http://127.0.0.1/admin',
    'http://10.0.0.5/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:8080/',
    'http://localhost:3000/',
    'http://app.localhost/',
    'http://user:pass@example.com/',
    'not a url',
  ])('refuses %s before any vendor call', async (url) => {
    const res = await call('web_fetch', { url });
    expect(res.isError).toBe(true);
    expect(res.body.error.code).toBe('web_search.url_not_allowed');
    expect(tavily.calls()).toHaveLength(0);
    expect(deepseek.calls()).toHaveLength(0);
  });
});

describe('web_search without any configured provider', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start({});
  });
  afterAll(() => ctx.close());

  it('fails the call with web_search.not_configured', async () => {
    await expect(ctx.app.get(WebSearchService).search(searchQueryOf({ query: 'x' }))).rejects.toMatchObject({
      code: 'web_search.not_configured',
    });
    await expect(ctx.app.get(WebSearchService).fetch('https://example.com/')).rejects.toMatchObject({
      code: 'web_search.not_configured',
    });
  });
});
