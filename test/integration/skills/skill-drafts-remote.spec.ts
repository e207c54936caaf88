import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { auth } from '../../support/runs/run-helpers';
import { forgeTransport, startForge, transportModule } from '../../support/skill-forge';
import { TestContext, type TestUser } from '../../support/test-app';

describe('skill drafts from a remote source (github.com mapped to a local https server)', () => {
  let forge: Awaited<ReturnType<typeof startForge>>;
  let ctx: TestContext;
  let user: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    forge = await startForge();
    const transport = forgeTransport(forge.port);
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
