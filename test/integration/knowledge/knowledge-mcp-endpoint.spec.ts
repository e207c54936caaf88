import { JwtService } from '@nestjs/jwt';
import { createSecretKey, hkdfSync } from 'node:crypto';
import { KnowledgeDelegation } from '../../../src/modules/knowledge/index';
import {
  knowledgeClient,
  knowledgeMcpEnvironment,
  listen,
  mint,
} from '../../support/knowledge/knowledge-mcp';
import { TestContext, type TestUser } from '../../support/test-app';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('the knowledge MCP endpoint: who gets in', () => {
  let ctx: TestContext;
  let url: string;
  let user: TestUser;

  beforeAll(async () => {
    const { port, url: endpoint, env } = await knowledgeMcpEnvironment();
    ctx = await TestContext.start(env);
    await listen(ctx, port);
    url = endpoint;
    user = await ctx.newUser();
  });
  afterAll(() => ctx?.close());

  const post = (headers: Record<string, string>, body: unknown = INITIALIZE) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  /** A token signed with the delegation key (derived as the app derives it) but with chosen claims. */
  function signed(claims: Record<string, unknown>, options: Record<string, unknown>): string {
    const key = createSecretKey(
      Buffer.from(
        hkdfSync(
          'sha256',
          ctx.config.secrets.key.reveal(),
          'yuxi-tool-platform',
          'knowledge-mcp-delegation/v1',
          32,
        ),
      ),
    );
    return new JwtService({ secret: key }).sign(claims, { algorithm: 'HS256', ...options });
  }

  it('answers a valid delegation token with an MCP initialize result', async () => {
    const res = await post(bearer(mint(ctx, { userId: user.id })));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { serverInfo: { name: string } } };
    expect(body.result.serverInfo.name).toBe('knowledge');
  });

  it('refuses a missing, forged, expired, wrong-audience or access token with 401', async () => {
    const claims = { typ: 'knowledge_delegation', sub: user.id, run: null, thread: null, kbs: [] };
    const expired = new KnowledgeDelegation({
      ...ctx.config,
      knowledgeMcp: { ...ctx.config.knowledgeMcp, delegationTtlSeconds: -60 },
    }).mint({ userId: user.id, runId: null, threadId: null, kbIds: [] });
    const forged = new JwtService({ secret: 'another-secret-of-at-least-32-characters!' }).sign(claims, {
      algorithm: 'HS256',
      audience: 'knowledge-mcp',
      issuer: 'yuxi-tool-platform',
      expiresIn: 300,
    });
    const wrongAudience = signed(claims, { audience: 'api', issuer: 'yuxi-tool-platform', expiresIn: 300 });
    const valid = mint(ctx, { userId: user.id });
    const tampered = `${valid.slice(0, -4)}${valid.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    const cases: Record<string, Record<string, string>> = {
      missing: {},
      'not bearer': { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      forged: bearer(forged),
      tampered: bearer(tampered),
      expired: bearer(expired),
      'wrong audience': bearer(wrongAudience),
      'user access token': bearer(user.token),
    };
    for (const [name, headers] of Object.entries(cases)) {
      const res = await post(headers);
      const body = (await res.json()) as { code: string };
      expect({ name, status: res.status, code: body.code }).toEqual({
        name,
        status: 401,
        code: 'knowledge.delegation_invalid',
      });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('refuses a foreign Host or Origin with 403 before looking at the token, and admits its own Origin', async () => {
    const token = mint(ctx, { userId: user.id });
    const origin = new URL(url).origin;
    const own = await post({ ...bearer(token), origin });
    expect(own.status).toBe(200);
    const foreignOrigin = await post({ ...bearer(token), origin: 'https://evil.example.com' });
    expect(foreignOrigin.status).toBe(403);
    expect(((await foreignOrigin.json()) as { code: string }).code).toBe('knowledge.request_not_allowed');
    const otherScheme = await post({ ...bearer(token), origin: origin.replace('http:', 'https:') });
    expect(otherScheme.status).toBe(403);
    // fetch will not let a script set Host; a raw request through the app's server can.
    const foreignHost = await ctx.http
      .post('/mcp/knowledge')
      .set('host', 'rebound.example.com')
      .set(bearer(token))
      .set('accept', 'application/json, text/event-stream')
      .send(INITIALIZE);
    expect(foreignHost.status).toBe(403);
    expect(foreignHost.body.code).toBe('knowledge.request_not_allowed');
    const noToken = await ctx.http.post('/mcp/knowledge').set('host', 'rebound.example.com').send(INITIALIZE);
    expect(noToken.status).toBe(403);
  });

  it('lives outside /api and answers only POST', async () => {
    const token = mint(ctx, { userId: user.id });
    const underApi = await fetch(url.replace('/mcp/knowledge', '/api/mcp/knowledge'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify(INITIALIZE),
    });
    expect(underApi.status).toBe(404);
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(url, { method, headers: bearer(token) });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('serves an SDK client over streamable HTTP, statelessly (no session id), listing exactly the five tools', async () => {
    const client = await knowledgeClient(url, mint(ctx, { userId: user.id }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['find_kb_document', 'list_kbs', 'open_kb_document', 'query_kb', 'search_file'].sort(),
    );
    const query = tools.find((t) => t.name === 'query_kb')!;
    expect(query.inputSchema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['kb_id', 'query']),
      properties: {
        top_k: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
      },
    });
    const res = await post(bearer(mint(ctx, { userId: user.id })));
    expect(res.headers.get('mcp-session-id')).toBeNull();
    await client.close();
  });
});
