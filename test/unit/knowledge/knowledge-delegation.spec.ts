import { randomBytes, randomUUID } from 'node:crypto';
import { parseConfig } from '../../../src/config/parse-config';
import { KnowledgeDelegation } from '../../../src/modules/knowledge/index';

const env = (extra: Record<string, string> = {}) => ({
  DATABASE_URL: 'postgres://u@127.0.0.1:5432/db',
  REDIS_URL: 'redis://127.0.0.1:6379/0',
  JWT_SECRET: randomBytes(32).toString('hex'),
  SECRETS_KEY: randomBytes(32).toString('base64'),
  ...extra,
});

describe('knowledge delegation tokens', () => {
  const grant = { userId: randomUUID(), runId: randomUUID(), threadId: randomUUID(), kbIds: [randomUUID()] };

  it('carries the running user, the run, the thread and the run’s knowledge bases, and expires in a minute by default', () => {
    const delegation = new KnowledgeDelegation(parseConfig(env()));
    const before = Date.now();
    const verified = delegation.verify(delegation.mint(grant));
    expect(verified).toMatchObject(grant);
    const lifetime = verified!.expiresAt.getTime() - before;
    expect(lifetime).toBeGreaterThan(55_000);
    expect(lifetime).toBeLessThanOrEqual(61_000);
  });

  it('is not accepted under another SECRETS_KEY, and still verifies after a rotation that keeps the old key', () => {
    const old = env();
    const token = new KnowledgeDelegation(parseConfig(old)).mint(grant);
    const rotatedAway = new KnowledgeDelegation(parseConfig(env({ JWT_SECRET: old.JWT_SECRET })));
    expect(rotatedAway.verify(token)).toBeNull();
    const rotated = new KnowledgeDelegation(
      parseConfig(env({ SECRETS_PREVIOUS_KEYS: old.SECRETS_KEY, JWT_SECRET: old.JWT_SECRET })),
    );
    expect(rotated.verify(token)).toMatchObject(grant);
  });

  it('refuses garbage and a token whose payload was altered', () => {
    const delegation = new KnowledgeDelegation(parseConfig(env()));
    const [header, payload, signature] = delegation.mint(grant).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const widened = Buffer.from(JSON.stringify({ ...claims, kbs: [...grant.kbIds, randomUUID()] })).toString(
      'base64url',
    );
    expect(delegation.verify(`${header}.${widened}.${signature}`)).toBeNull();
    expect(delegation.verify('not-a-token')).toBeNull();
    expect(delegation.verify('')).toBeNull();
  });
});

describe('KNOWLEDGE_MCP_URL', () => {
  it('defaults to this process on loopback, and the Host it answers follows the URL', () => {
    const config = parseConfig(env({ PORT: '4100' }));
    expect(config.knowledgeMcp.url).toBe('http://127.0.0.1:4100/mcp/knowledge');
    expect(config.knowledgeMcp.allowedHosts).toEqual(['127.0.0.1:4100']);
    const remote = parseConfig(
      env({
        KNOWLEDGE_MCP_URL: 'http://api.internal:3000/mcp/knowledge',
        KNOWLEDGE_MCP_ALLOWED_HOSTS: 'API.lb:80',
      }),
    );
    expect(remote.knowledgeMcp.allowedHosts).toEqual(['api.internal:3000', 'api.lb:80']);
  });

  it('refuses a URL with credentials, a query or another scheme, naming the variable', () => {
    for (const bad of ['ftp://h/mcp', 'http://u:p@h/mcp', 'http://h/mcp?x=1', 'not a url']) {
      expect(() => parseConfig(env({ KNOWLEDGE_MCP_URL: bad }))).toThrow(/KNOWLEDGE_MCP_URL/);
    }
  });
});
