import { randomBytes } from 'node:crypto';
import { fetch as undiciFetch } from 'undici';
import { DomainError } from '../../../src/common/errors/domain-error';
import { Allowlist } from '../../../src/common/http-safety/allowlist';
import { checkUrlLiteral } from '../../../src/common/http-safety/check-url';
import { BlockedAddressError } from '../../../src/common/http-safety/http-safety.errors';
import { readBodyCapped } from '../../../src/common/http-safety/read-body-capped';
import { createSafeDispatcher } from '../../../src/common/http-safety/safe-dispatcher';
import { fetchSafely } from '../../../src/common/http-safety/safe-fetch';
import { SafeHttpClient } from '../../../src/common/http-safety/safe-http-client';
import type { ResolveAll } from '../../../src/common/http-safety/safe-lookup';
import { safeFetch } from '../../../src/common/http-safety/whatwg-safe-fetch';
import { parseConfig } from '../../../src/config/parse-config';
import { startLocalServer, type LocalServer } from './local-servers';

const MiB = 1024 * 1024;

function configWith(allowPrivateNetworkTargets?: string) {
  return parseConfig({
    DATABASE_URL: 'postgres://x@127.0.0.1/x',
    REDIS_URL: 'redis://127.0.0.1:6379',
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    ALLOW_PRIVATE_NETWORK_TARGETS: allowPrivateNetworkTargets,
  });
}

async function domainErrorOf(promise: Promise<unknown>): Promise<DomainError> {
  const err = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  if (!(err instanceof DomainError)) throw err;
  return err;
}

describe('safe fetch against local servers', () => {
  let allowed: LocalServer; // in the allowlist
  let other: LocalServer; // in the allowlist (cross-origin target)
  let refused: LocalServer; // never in the allowlist: must receive nothing
  let client: SafeHttpClient;
  let strict: SafeHttpClient;

  beforeAll(async () => {
    refused = await startLocalServer((_req, res) => res.end('secret'));
    other = await startLocalServer((req, res) =>
      res.end(JSON.stringify({ auth: req.headers.authorization ?? null })),
    );
    allowed = await startLocalServer((req, res, body) => {
      const path = req.url ?? '';
      const redirect = (status: number, location: string) => res.writeHead(status, { location }).end();
      if (path === '/hello') return void res.end('hello');
      if (path === '/to-refused') return redirect(302, `http://127.0.0.1:${refused.port}/secret`);
      if (path === '/to-refused-by-name') return redirect(302, `http://localhost:${refused.port}/secret`);
      if (path === '/to-metadata') return redirect(301, 'http://169.254.169.254/latest/meta-data/');
      if (path === '/to-file') return redirect(302, 'file:///etc/passwd');
      if (path === '/loop') return redirect(302, '/loop');
      if (path === '/see-other') return redirect(303, '/landing');
      if (path === '/found') return redirect(302, 'landing');
      if (path === '/temporary') return redirect(307, '/landing');
      if (path === '/cross') return redirect(302, `${other.origin}/whoami`);
      if (path === '/cross-307') return redirect(307, `${other.origin}/cross-body`);
      if (path === '/cross-308') return redirect(308, `${other.origin}/cross-body`);
      if (path === '/same') return redirect(302, '/auth');
      if (path === '/landing') {
        return void res.end(
          JSON.stringify({ method: req.method, body, type: req.headers['content-type'] ?? null }),
        );
      }
      if (path === '/auth') return void res.end(JSON.stringify({ auth: req.headers.authorization ?? null }));
      if (path === '/big') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        for (let i = 0; i < 32; i++) res.write(Buffer.alloc(64 * 1024, 1));
        return void res.end();
      }
      if (path === '/big-declared') {
        return void res.writeHead(200, { 'content-length': 2 * MiB }).end(Buffer.alloc(2 * MiB));
      }
      if (path === '/slow-body') return void res.writeHead(200).write('partial');
      if (path === '/hang') return; // never answers
      res.writeHead(404).end();
    });
    client = new SafeHttpClient(configWith(`127.0.0.1:${allowed.port},127.0.0.1:${other.port}`));
    strict = new SafeHttpClient(configWith());
  });

  afterAll(async () => {
    await Promise.all([client.onModuleDestroy(), strict.onModuleDestroy()]);
    await Promise.all([allowed.close(), other.close(), refused.close()]);
  });

  beforeEach(() => {
    allowed.requests.length = 0;
  });
  afterEach(() => expect(refused.requests).toHaveLength(0));

  const hits = (server: LocalServer, path: string) => server.requests.filter((r) => r.url === path).length;

  it('refuses 127.0.0.1 without the allowlist and reaches it with 127.0.0.1:<port> listed', async () => {
    const err = await domainErrorOf(strict.fetch(`${allowed.origin}/hello`));
    expect(err).toMatchObject({ code: 'http_safety.url_not_allowed', kind: 'invalid' });
    expect(err.details).toEqual({ url: `${allowed.origin}/hello`, reason: 'blocked_address' });
    expect(hits(allowed, '/hello')).toBe(0);

    const { response, url } = await client.fetch(`${allowed.origin}/hello`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('hello');
    expect(url).toBe(`${allowed.origin}/hello`);
    expect(hits(allowed, '/hello')).toBe(1);
  });

  it('refuses a name resolving to loopback (localhost) in the lookup, before connecting', async () => {
    const url = `http://localhost:${allowed.port}/hello`;
    expect(() => checkUrlLiteral(url, [])).not.toThrow(); // not a literal: only the lookup can refuse it
    for (const c of [strict, client]) {
      const err = await domainErrorOf(c.fetch(url));
      expect(err.code).toBe('http_safety.url_not_allowed');
      expect(err.details?.reason).toBe('blocked_address');
    }
    expect(hits(allowed, '/hello')).toBe(0);
  });

  it.each([
    ['/to-refused', 'blocked_address'],
    ['/to-refused-by-name', 'blocked_address'],
    ['/to-metadata', 'blocked_address'],
    ['/to-file', 'scheme_not_allowed'],
  ])('re-validates every redirect hop (%s)', async (path, reason) => {
    const err = await domainErrorOf(client.fetch(`${allowed.origin}${path}`));
    expect(err.code).toBe('http_safety.url_not_allowed');
    expect(err.details?.reason).toBe(reason);
    expect(hits(allowed, path)).toBe(1);
  });

  it('stops a redirect loop with too_many_redirects', async () => {
    const err = await domainErrorOf(client.fetch(`${allowed.origin}/loop`));
    expect(err).toMatchObject({ code: 'http_safety.too_many_redirects', details: { max_redirects: 5 } });
    expect(hits(allowed, '/loop')).toBe(6);

    const capped = await domainErrorOf(client.fetch(`${allowed.origin}/loop`, { maxRedirects: 1 }));
    expect(capped.code).toBe('http_safety.too_many_redirects');
    expect(hits(allowed, '/loop')).toBe(8);
  });

  it('times out on a server that never answers', async () => {
    const started = Date.now();
    const err = await domainErrorOf(client.fetch(`${allowed.origin}/hang`, { timeoutMs: 300 }));
    expect(err).toMatchObject({ code: 'http_safety.timeout', kind: 'timeout', details: { timeout_ms: 300 } });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('keeps the deadline running while the body is read (unless told not to)', async () => {
    const { response } = await client.fetch(`${allowed.origin}/slow-body`, { timeoutMs: 300 });
    expect(response.status).toBe(200);
    const err = await domainErrorOf(readBodyCapped(response, MiB));
    expect(err.code).toBe('http_safety.timeout');

    const streaming = await client.fetch(`${allowed.origin}/slow-body`, {
      timeoutMs: 100,
      timeoutIncludesBody: false,
    });
    await new Promise((r) => setTimeout(r, 300));
    const reader = streaming.response.body!.getReader();
    expect(Buffer.from((await reader.read()).value).toString()).toBe('partial');
    await reader.cancel();
  });

  it('lets the caller abort with its own reason', async () => {
    const controller = new AbortController();
    const mine = new Error('caller gave up');
    setTimeout(() => controller.abort(mine), 50);
    await expect(client.fetch(`${allowed.origin}/hang`, { signal: controller.signal })).rejects.toBe(mine);
  });

  it('caps the response size, with or without a declared length', async () => {
    for (const path of ['/big', '/big-declared']) {
      const { response } = await client.fetch(`${allowed.origin}${path}`);
      const err = await domainErrorOf(readBodyCapped(response, 64 * 1024));
      expect(err).toMatchObject({ code: 'http_safety.response_too_large', kind: 'too_large' });
      expect(err.details).toMatchObject({ limit_bytes: 64 * 1024, url: `${allowed.origin}${path}` });
    }
    const { response } = await client.fetch(`${allowed.origin}/big`);
    expect((await readBodyCapped(response, 4 * MiB)).length).toBe(2 * MiB);
  });

  it('turns POST into a body-less GET on 303 and 302, keeps it on 307', async () => {
    const post = { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } };
    for (const path of ['/see-other', '/found']) {
      const { response, url } = await client.fetch(`${allowed.origin}${path}`, post);
      expect(url).toBe(`${allowed.origin}/landing`);
      expect(await response.json()).toEqual({ method: 'GET', body: '', type: null });
    }
    const kept = await client.fetch(`${allowed.origin}/temporary`, post);
    expect(await kept.response.json()).toEqual({ method: 'POST', body: '{"a":1}', type: 'application/json' });
  });

  it('hands a 307 back unfollowed when the body is a stream that cannot be replayed', async () => {
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('streamed'));
        controller.close();
      },
    });
    const { response, url } = await client.fetch(`${allowed.origin}/temporary`, { method: 'POST', body });
    expect(response.status).toBe(307);
    expect(url).toBe(`${allowed.origin}/temporary`);
    expect(allowed.requests.map((r) => [r.url, r.body])).toEqual([['/temporary', 'streamed']]);
  });

  it('sends URL credentials as Basic auth, keeps them on same-origin hops and drops them cross-origin', async () => {
    const basic = `Basic ${Buffer.from('alice:p@ss').toString('base64')}`;
    const auth = `http://alice:p%40ss@127.0.0.1:${allowed.port}`;
    expect(await (await client.fetch(`${auth}/auth`)).response.json()).toEqual({ auth: basic });
    expect(await (await client.fetch(`${auth}/same`)).response.json()).toEqual({ auth: basic });
    const cross = await client.fetch(`${allowed.origin}/cross`, {
      headers: { authorization: 'Bearer t0ken' },
    });
    expect(await cross.response.json()).toEqual({ auth: null });
  });

  it('sends only an allowlist of caller headers to another origin after a redirect', async () => {
    other.requests.length = 0;
    await client.fetch(`${allowed.origin}/cross`, {
      headers: {
        accept: 'application/json',
        'accept-language': 'de',
        'user-agent': 'yuxi-test',
        authorization: 'Bearer t0ken',
        cookie: 'session=s3cret',
        'proxy-authorization': 'Basic cHJveHk=',
        'x-api-key': 'k3y',
        'x-custom-token': 't0k',
      },
    });
    const [first] = allowed.requests;
    expect(first.headers).toMatchObject({
      'x-api-key': 'k3y',
      'x-custom-token': 't0k',
      cookie: 'session=s3cret',
    });
    const [hop] = other.requests;
    expect(hop.url).toBe('/whoami');
    expect(hop.headers).toMatchObject({
      accept: 'application/json',
      'accept-language': 'de',
      'user-agent': 'yuxi-test',
    });
    for (const name of ['authorization', 'cookie', 'proxy-authorization', 'x-api-key', 'x-custom-token'])
      expect(hop.headers[name]).toBeUndefined();
  });

  it('refuses to re-send a body to another origin on 307/308; a body-less request follows', async () => {
    other.requests.length = 0;
    for (const path of ['/cross-307', '/cross-308']) {
      const err = await domainErrorOf(
        client.fetch(`${allowed.origin}${path}`, {
          method: 'POST',
          body: '{"secret":"payload"}',
          headers: { 'content-type': 'application/json' },
        }),
      );
      expect(err.code).toBe('http_safety.url_not_allowed');
      expect(err.details).toMatchObject({ reason: 'cross_origin_body_redirect' });
      expect(err.message).not.toContain('payload');
    }
    expect(other.requests).toHaveLength(0);

    const get = await client.fetch(`${allowed.origin}/cross-307`);
    expect(get.url).toBe(`${other.origin}/cross-body`);
    expect(other.requests.map((r) => [r.method, r.url, r.body])).toEqual([['GET', '/cross-body', '']]);
  });

  it('never puts credentials or the query string in errors', async () => {
    const err = await domainErrorOf(
      strict.fetch(`http://alice:s3cret@127.0.0.1:${allowed.port}/hello?key=abc`),
    );
    const text = `${err.message} ${JSON.stringify(err.details)}`;
    for (const secret of ['alice', 's3cret', 'key=', 'abc']) expect(text).not.toContain(secret);
  });

  it('reports a refused connection as connection_failed', async () => {
    const gone = await startLocalServer(() => undefined);
    await gone.close();
    const anyPort = new SafeHttpClient(configWith('127.0.0.1'));
    try {
      const err = await domainErrorOf(anyPort.fetch(`${gone.origin}/`));
      expect(err).toMatchObject({ code: 'http_safety.connection_failed', kind: 'unavailable' });
    } finally {
      await anyPort.onModuleDestroy();
    }
  });

  it('the dispatcher alone refuses blocked literals at connect time', async () => {
    const dispatcher = createSafeDispatcher([]);
    try {
      const err = await undiciFetch(`${allowed.origin}/hello`, { dispatcher }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TypeError);
      expect((err as TypeError).cause).toBeInstanceOf(BlockedAddressError);
      expect(hits(allowed, '/hello')).toBe(0);
    } finally {
      await dispatcher.close();
    }
  });

  it('uses the checked addresses of an allowlisted name, and refuses the same name elsewhere', async () => {
    const resolveTo =
      (...addresses: string[]): ResolveAll =>
      (_host, _opts, cb) =>
        cb(
          null,
          addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
        );
    const allowlist = Allowlist.from([`internal.test:${allowed.port}`]);
    const target = {
      allowlist,
      dispatcher: createSafeDispatcher(allowlist, { resolveAll: resolveTo('127.0.0.1') }),
    };
    const mixed = {
      allowlist: Allowlist.EMPTY,
      dispatcher: createSafeDispatcher([], { resolveAll: resolveTo('8.8.8.8', '127.0.0.1') }),
    };
    try {
      const ok = await fetchSafely(target, `http://INTERNAL.test:${allowed.port}/hello`);
      expect(await ok.response.text()).toBe('hello');
      expect(ok.response.status).toBe(200);
      const elsewhere = await domainErrorOf(
        fetchSafely(target, `http://internal.test:${refused.port}/secret`),
      );
      expect(elsewhere.details?.reason).toBe('blocked_address');
      // a public address next to a private one refuses the whole answer: nothing is connected
      const rebound = await domainErrorOf(fetchSafely(mixed, `http://rebind.test:${allowed.port}/hello`));
      expect(rebound.details?.reason).toBe('blocked_address');
      expect(hits(allowed, '/hello')).toBe(1);
    } finally {
      await Promise.all([target.dispatcher.close(), mixed.dispatcher.close()]);
    }
  });

  it('exposes a WHATWG-compatible fetch honouring the allowlist (the strict default refuses)', async () => {
    const res = await client.safeFetch(
      new Request(`${allowed.origin}/temporary`, { method: 'POST', body: 'x=1' }),
    );
    expect(await res.json()).toEqual({ method: 'POST', body: 'x=1', type: 'text/plain;charset=UTF-8' });
    const err = await domainErrorOf(safeFetch(`${allowed.origin}/landing`));
    expect(err.code).toBe('http_safety.url_not_allowed');
    expect(hits(allowed, '/landing')).toBe(1);
  });
});
