import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConsoleDir } from '../../../src/bootstrap/serve-console';
import { TestContext } from '../../support/test-app';

/** `npm run build` (run before Jest by `npm test`) puts the console into dist/console. */
describe('the console served at /', () => {
  let ctx: TestContext;
  const bundle = readdirSync(join(defaultConsoleDir(), 'assets')).find((name) => name.endsWith('.js'))!;

  beforeAll(async () => {
    ctx = await TestContext.start();
  });

  afterAll(() => ctx.close());

  it('answers / with the app page, not cached, under a CSP without inline scripts', async () => {
    const res = await ctx.http.get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<div id="app"></div>');
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    // The page itself holds no inline script: every script is a file of the bundle.
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('falls back to the app page for the app routes, so a deep link or a reload works', async () => {
    for (const path of ['/chat', '/chat/3f1c2b7e-0000-4000-8000-000000000000', '/sign-in', '/no/such/page']) {
      const res = await ctx.http.get(path);
      expect({ path, status: res.status, app: res.text.includes('<div id="app"></div>') }).toEqual({
        path,
        status: 200,
        app: true,
      });
    }
  });

  it('serves the hashed bundles for a year and a missing bundle as 404, never as the page', async () => {
    const res = await ctx.http.get(`/assets/${bundle}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await ctx.http.get('/assets/index-doesnotexist.js');
    expect(missing.status).toBe(404);
    expect(missing.text).not.toContain('<div id="app">');
    const missingFile = await ctx.http.get('/robots-missing.txt');
    expect(missingFile.status).toBe(404);
  });

  it('never shadows the API, the MCP endpoint or the metrics route', async () => {
    const api = await ctx.http.get('/api/no-such-route');
    expect(api.status).toBe(404);
    expect(api.body.code).toBe('common.not_found');
    expect(api.headers['content-security-policy']).toBeUndefined();
    const health = await ctx.http.get('/api/health/live');
    expect(health.body).toEqual({ status: 'ok' });
    for (const path of ['/mcp', '/mcp/x', '/metrics', '/api']) {
      const res = await ctx.http.get(path);
      expect({ path, app: res.text.includes('<div id="app">') }).toEqual({ path, app: false });
    }
  });

  it('does not serve files outside the build folder or hidden files', async () => {
    for (const path of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/.env',
    ]) {
      const res = await ctx.http.get(path);
      expect({ path, leaked: res.text.includes('"name": "yuxi-tool-platform"') }).toEqual({
        path,
        leaked: false,
      });
    }
  });

  it('answers only GET and HEAD: another method on a console path is a 404 without the page', async () => {
    const res = await ctx.http.post('/chat').send({});
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('<div id="app">');
  });
});
