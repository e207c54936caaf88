import { Global, Module } from '@nestjs/common';
import { strToU8, zipSync } from 'fflate';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SAFE_HTTP_TEST_TRANSPORT, type TestTransport } from '../../../src/common/http-safety';
import { auth } from '../../support/runs/run-helpers';
import { skillMd } from '../../support/skills';
import { TestContext, type TestUser } from '../../support/test-app';

const TLS = join(__dirname, '../../support/fixtures/tls');
const REPO_ZIP = zipSync({
  'tools-HEAD/README.md': strToU8('# tools'),
  'tools-HEAD/skills/remote-a/SKILL.md': strToU8(skillMd('remote-a')),
  'tools-HEAD/skills/remote-b/SKILL.md': strToU8(skillMd('remote-b')),
});

/** github.com and codeload.github.com, served by a local https server (test CA), requests recorded. */
async function startForge() {
  const seen: string[] = [];
  const server: Server = createServer(
    { key: readFileSync(join(TLS, 'server.key')), cert: readFileSync(join(TLS, 'server.pem')) },
    (req, res) => {
      const where = `${(req.headers.host ?? '').replace(/:443$/, '')}${req.url ?? ''}`;
      seen.push(where);
      if (where === 'github.com/acme/tools/archive/HEAD.zip')
        res.writeHead(302, { location: 'https://codeload.github.com/acme/tools/zip/HEAD' }).end();
      else if (where === 'codeload.github.com/acme/tools/zip/HEAD')
        res.writeHead(200, { 'content-type': 'application/zip' }).end(Buffer.from(REPO_ZIP));
      else res.writeHead(404).end();
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function transportModule(transport: TestTransport) {
  @Global()
  @Module({
    providers: [{ provide: SAFE_HTTP_TEST_TRANSPORT, useValue: transport }],
    exports: [SAFE_HTTP_TEST_TRANSPORT],
  })
  class TestTransportModule {}
  return TestTransportModule;
}

describe('skill drafts from a remote source (github.com mapped to a local https server)', () => {
  let forge: Awaited<ReturnType<typeof startForge>>;
  let ctx: TestContext;
  let user: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    forge = await startForge();
    const transport: TestTransport = {
      hosts: {
        'github.com:443': { address: '127.0.0.1', port: forge.port },
        'codeload.github.com:443': { address: '127.0.0.1', port: forge.port },
      },
      ca: readFileSync(join(TLS, 'ca.pem'), 'utf8'),
    };
    ctx = await TestContext.start({ ALLOW_PRIVATE_NETWORK_TARGETS: 'github.com,codeload.github.com' }, [
      transportModule(transport),
    ]);
    user = await ctx.newUser();
    admin = await ctx.newUser({ role: 'admin' });
  });
  afterAll(async () => {
    await ctx?.close();
    await forge?.close();
  });
  beforeEach(() => (forge.seen.length = 0));

  const draftIds = () => {
    const dir = join(ctx.config.dataDir, 'skill-drafts');
    return existsSync(dir) ? readdirSync(dir) : [];
  };
  const remote = (body: object) => ctx.http.post('/api/skills/drafts/remote').set(auth(user)).send(body);

  it('drafts the skills named from owner/repo, fetched through the redirect, and confirms them', async () => {
    const res = await remote({ source: 'acme/tools', skill_names: ['remote-b'] });
    expect(res.status).toBe(201);
    const draft = res.body as { id: string; items: { slug: string }[]; failures: unknown[] };
    expect(draft.items.map((i) => i.slug)).toEqual(['remote-b']);
    expect(forge.seen).toEqual([
      'github.com/acme/tools/archive/HEAD.zip',
      'codeload.github.com/acme/tools/zip/HEAD',
    ]);
    const ok = await ctx.http
      .post(`/api/skills/drafts/${draft.id}/confirm`)
      .set(auth(user))
      .send({ target: 'personal' });
    expect((ok.body as { installed: { slug: string }[] }).installed.map((i) => i.slug)).toEqual(['remote-b']);
    const list = await ctx.http.get('/api/skills').set(auth(user));
    const personal = (list.body as { items: { slug: string; source: string }[] }).items
      .filter((i) => i.source === 'personal')
      .map((i) => i.slug);
    expect(personal).toEqual(['remote-b']);
  });

  it('answers 422 for unknown skill names, writing no draft', async () => {
    const before = draftIds();
    const res = await remote({ source: 'acme/tools', skill_names: ['remote-a', 'nope'] });
    expect({ status: res.status, code: (res.body as { code: string }).code }).toEqual({
      status: 422,
      code: 'skills.unknown_skill_names',
    });
    expect((res.body as { details: { names: string[] } }).details.names).toEqual(['nope']);
    expect(draftIds()).toEqual(before);
  });

  it('refuses a host outside remote_source_allowed_hosts before any request, and follows a changed setting', async () => {
    const res = await remote({ source: 'https://example.com/x.zip', skill_names: ['a'] });
    expect({ status: res.status, code: (res.body as { code: string }).code }).toEqual({
      status: 422,
      code: 'skills.remote_source_refused',
    });
    expect((res.body as { details: { reason: string } }).details.reason).toBe('host_not_allowed');
    const saved = await ctx.http
      .put('/api/system/settings/skills')
      .set(auth(admin))
      .send({ remote_source_allowed_hosts: [] });
    expect(saved.status).toBe(200);
    const off = await remote({ source: 'acme/tools', skill_names: ['remote-a'] });
    expect((off.body as { details: { reason: string } }).details.reason).toBe('remote_disabled');
    expect(forge.seen).toEqual([]);
  });
});
