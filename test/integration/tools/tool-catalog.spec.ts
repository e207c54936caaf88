import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { ToolRegistry } from '../../../src/modules/tools/registry/tool-registry';
import { TestContext, type TestUser } from '../../support/test-app';
import { ProbeToolsModule } from './probe-tools';

describe('GET /api/system/tools', () => {
  let ctx: TestContext;
  let user: TestUser;
  beforeAll(async () => {
    ctx = await TestContext.start({}, [ProbeToolsModule]);
    user = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  const get = (path: string) => ctx.http.get(path).set('Authorization', `Bearer ${user.token}`);

  it('lists the tools discovered at boot with their metadata and JSON Schema arguments', async () => {
    const res = await get('/api/system/tools');
    expect(res.status).toBe(200);
    const echo = res.body.items.find((t: { id: string }) => t.id === 'probe_echo');
    expect(echo).toEqual({
      id: 'probe_echo',
      display_name: '回声',
      description: 'Repeats the text.',
      category: 'debug',
      tags: ['probe', '示例'],
      icon: null,
      config_guide: null,
      args_schema: expect.objectContaining({
        type: 'object',
        properties: expect.objectContaining({ text: expect.objectContaining({ type: 'string' }) }),
        required: ['text'],
        additionalProperties: false,
      }),
      base: false,
      side_effects: 'none',
      available: true,
      unavailable_reason: null,
    });
  });

  it('says what each tool may change, as the approval policy’s `auto` reads it', async () => {
    const items: { id: string; side_effects: string }[] = (await get('/api/system/tools')).body.items;
    const sideEffects = new Map(items.map((item) => [item.id, item.side_effects]));
    expect(sideEffects.get('execute')).toBe('execute');
    expect(sideEffects.get('write_file')).toBe('workspace');
    expect(sideEffects.get('edit_file')).toBe('workspace');
    expect(sideEffects.get('read_file')).toBe('none');
    expect(
      items.every((item) => ['none', 'workspace', 'external', 'execute'].includes(item.side_effects)),
    ).toBe(true);
  });

  it('filters by category and tag; a category no tool has is an empty list, a repeated one 400', async () => {
    const debug = await get('/api/system/tools?category=debug');
    expect(debug.body.items.length).toBeGreaterThanOrEqual(8);
    expect(debug.body.items.every((t: { category: string }) => t.category === 'debug')).toBe(true);

    const tagged = await get(`/api/system/tools?tag=${encodeURIComponent('示例')}`);
    expect(tagged.body.items.map((t: { id: string }) => t.id)).toEqual(['probe_echo']);

    const none = await get('/api/system/tools?category=mcp');
    expect(none.body.items).toEqual([]);
    // Categories grow as modules register tools: a client filtering by one must not break.
    const unknown = await get('/api/system/tools?category=nonsense');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ items: [] });
    const repeated = await get('/api/system/tools?category=debug&category=builtin');
    expect(repeated.status).toBe(400);
    expect(repeated.body.code).toBe('common.validation_failed');
  });

  it('returns one tool, and 404 for an unknown id', async () => {
    expect((await get('/api/system/tools/probe_kb')).body.id).toBe('probe_kb');
    const missing = await get('/api/system/tools/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('tools.not_found');
  });

  it('needs authentication', async () => {
    expect((await ctx.http.get('/api/system/tools')).status).toBe(401);
  });

  it('shows a tool registered later at once, with its availability', async () => {
    const registry = ctx.app.get(ToolRegistry);
    const vendor = tool(({ q }: { q: string }) => Promise.resolve(`results for ${q}`), {
      name: 'vendor_search',
      description: 'Searches a vendor.',
      schema: z.object({ q: z.string() }),
    });
    registry.register(vendor, { category: 'builtin', tags: ['搜索'], displayName: '供应商搜索' });
    registry.setAvailability('vendor_search', () => ({ available: false, reason: 'no provider configured' }));

    const res = await get('/api/system/tools/vendor_search');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      available: false,
      unavailable_reason: 'no provider configured',
      category: 'builtin',
    });
    expect(() => registry.register(vendor, { category: 'builtin', tags: [], displayName: 'again' })).toThrow(
      'already registered',
    );
  });

  it('hands out copies: mutating what the registry returned changes nothing inside', async () => {
    const registry = ctx.app.get(ToolRegistry);
    const listed = registry.list();
    const echo = listed.find((t) => t.metadata.name === 'probe_echo')!;
    (echo.metadata.tags as string[]).push('tampered');
    echo.metadata.displayName = 'tampered';
    listed.length = 0;
    expect(registry.list().length).toBeGreaterThan(0);
    const res = await get('/api/system/tools/probe_echo');
    expect(res.body.tags).toEqual(['probe', '示例']);
    expect(res.body.display_name).toBe('回声');
    res.body.args_schema.properties.text.type = 'number';
    expect((await get('/api/system/tools/probe_echo')).body.args_schema.properties.text.type).toBe('string');
  });
});
