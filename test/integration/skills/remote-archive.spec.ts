import { strToU8, zipSync } from 'fflate';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DomainError } from '../../../src/common/errors/domain-error';
import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import {
  SAFE_HTTP_TEST_TRANSPORT,
  SafeHttpClient,
  SafeHttpModule,
  type TestTransport,
} from '../../../src/common/http-safety';
import { AppConfigModule } from '../../../src/config/config.module';
import { parseConfig } from '../../../src/config/parse-config';
import { fetchRemoteArchive } from '../../../src/modules/skills/remote/fetch-remote-archive';
import { groupSkillFolders } from '../../../src/modules/skills/archive/group-skill-folders';
import { parseRemoteSource } from '../../../src/modules/skills/remote/parse-remote-source';
import { readSkillArchive } from '../../../src/modules/skills/archive/skill-archive';
import { RemoteSourceError } from '../../../src/modules/skills/remote/remote-source.errors';

const TLS = join(__dirname, '../../support/fixtures/tls');
const MB = 1024 * 1024;
const REPO_ZIP = zipSync({
  'tools-HEAD/README.md': strToU8('# tools'),
  'tools-HEAD/skills/a/SKILL.md': strToU8('---\nname: a\ndescription: A\n---\n'),
  'tools-HEAD/skills/b/SKILL.md': strToU8('---\nname: b\ndescription: B\n---\n'),
  'tools-HEAD/skills/b/scripts/run.sh': strToU8('echo b'),
});

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: Buffer | Uint8Array;
}

interface Seen {
  host: string;
  path: string;
  headers: IncomingHttpHeaders;
}

/** An https server (test CA) answering for github.com and codeload.github.com, recording every request. */
async function startHttps(
  handle: (
    host: string,
    path: string,
  ) => { status: number; headers?: Record<string, string>; body?: Buffer | Uint8Array },
) {
  const seen: Seen[] = [];
  const server: Server = createServer(
    { key: readFileSync(join(TLS, 'server.key')), cert: readFileSync(join(TLS, 'server.pem')) },
    (req, res) => {
      const host = (req.headers.host ?? '').replace(/:443$/, '');
      seen.push({ host, path: req.url ?? '', headers: req.headers });
      const answer = handle(host, req.url ?? '');
      res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
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

function configWith(allowPrivateNetworkTargets?: string) {
  return parseConfig({
    DATABASE_URL: 'postgres://x@127.0.0.1/x',
    REDIS_URL: 'redis://127.0.0.1:6379',
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    ALLOW_PRIVATE_NETWORK_TARGETS: allowPrivateNetworkTargets,
  });
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('fetchRemoteArchive through the guarded fetch (github.com mapped to a local https server)', () => {
  let forge: Awaited<ReturnType<typeof startHttps>>;
  let internal: Awaited<ReturnType<typeof startHttps>>; // never allowlisted: must receive nothing
  let client: SafeHttpClient;
  let strict: SafeHttpClient;
  let transport: TestTransport;
  const saved = { ...process.env };

  beforeAll(async () => {
    internal = await startHttps(() => ({ status: 200, body: Buffer.from('internal secret') }));
    forge = await startHttps((host, path): Answer => {
      if (host === 'github.com' && path === '/acme/tools/archive/HEAD.zip')
        return { status: 302, headers: { location: 'https://codeload.github.com/acme/tools/zip/HEAD' } };
      if (host === 'codeload.github.com' && path === '/acme/tools/zip/HEAD')
        return { status: 200, headers: { 'content-type': 'application/zip' }, body: REPO_ZIP };
      if (host === 'github.com' && path === '/acme/huge/archive/HEAD.zip')
        return { status: 200, body: Buffer.alloc(2 * MB) };
      if (host === 'github.com' && path === '/acme/to-metadata/archive/HEAD.zip')
        return { status: 302, headers: { location: 'https://169.254.169.254/latest/meta-data/' } };
      if (host === 'github.com' && path === '/acme/to-internal/archive/HEAD.zip')
        return { status: 302, headers: { location: 'https://internal.example/secret' } };
      return { status: 404 };
    });
    transport = {
      hosts: {
        'github.com:443': { address: '127.0.0.1', port: forge.port },
        'codeload.github.com:443': { address: '127.0.0.1', port: forge.port },
        'internal.example:443': { address: '127.0.0.1', port: internal.port },
      },
      ca: readFileSync(join(TLS, 'ca.pem'), 'utf8'),
    };
    client = new SafeHttpClient(configWith('github.com,codeload.github.com'), transport);
    strict = new SafeHttpClient(configWith(), transport);
    // Nothing from the environment may reach a request: tokens and proxies are set, and must be ignored.
    Object.assign(process.env, {
      GITHUB_TOKEN: 'ghp_from_the_environment',
      GH_TOKEN: 'ghp_from_the_environment',
      HTTPS_PROXY: 'http://127.0.0.1:9',
      https_proxy: 'http://127.0.0.1:9',
    });
  });

  afterAll(async () => {
    process.env = saved;
    await Promise.all([client.onModuleDestroy(), strict.onModuleDestroy()]);
    await Promise.all([forge.close(), internal.close()]);
  });

  beforeEach(() => (forge.seen.length = 0));
  afterEach(() => expect(internal.seen).toEqual([]));

  const fetchVia = (http: SafeHttpClient, source: string, maxBytes = MB) =>
    fetchRemoteArchive(parseRemoteSource(source), {
      safeFetch: (url, init) => http.fetch(url, init),
      maxBytes,
    });

  it('fetches owner/repo from github.com/<owner>/<repo>/archive/HEAD.zip, following the codeload redirect', async () => {
    const zip = await fetchVia(client, 'acme/tools');
    expect(Buffer.compare(zip, Buffer.from(REPO_ZIP))).toBe(0);
    expect(forge.seen.map((s) => `${s.host}${s.path}`)).toEqual([
      'github.com/acme/tools/archive/HEAD.zip',
      'codeload.github.com/acme/tools/zip/HEAD',
    ]);
    // the archive then reads and groups like an upload
    const grouped = groupSkillFolders(readSkillArchive(zip).entries);
    expect(grouped.items.map((item) => [item.folder, item.files.map((f) => f.path)])).toEqual([
      ['tools-HEAD/skills/a', ['SKILL.md']],
      ['tools-HEAD/skills/b', ['SKILL.md', 'scripts/run.sh']],
    ]);
  });

  it('sends nothing from the process environment (no token, no proxy) and no credentials', async () => {
    await fetchVia(client, 'https://github.com/acme/tools');
    expect(forge.seen).toHaveLength(2);
    for (const { headers } of forge.seen) {
      expect(headers.authorization).toBeUndefined();
      expect(headers['proxy-authorization']).toBeUndefined();
      expect(JSON.stringify(headers)).not.toContain('ghp_from_the_environment');
    }
  });

  it('refuses the mapped github.com without ALLOW_PRIVATE_NETWORK_TARGETS: it resolves to a loopback address', async () => {
    const error = await rejectionOf(fetchVia(strict, 'acme/tools'));
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).details?.reason).toBe('blocked_address');
    expect(forge.seen).toEqual([]);
  });

  it('refuses a redirect to a metadata address and one to a name that resolves to a blocked address', async () => {
    for (const repo of ['acme/to-metadata', 'acme/to-internal']) {
      const error = await rejectionOf(fetchVia(client, repo));
      expect(error).toMatchObject({
        code: 'http_safety.url_not_allowed',
        details: { reason: 'blocked_address' },
      });
    }
    expect(forge.seen.map((s) => s.path)).toEqual([
      '/acme/to-metadata/archive/HEAD.zip',
      '/acme/to-internal/archive/HEAD.zip',
    ]);
  });

  it('stops reading a body over the cap', async () => {
    const error = await rejectionOf(fetchVia(client, 'acme/huge', MB));
    expect(error).toMatchObject({ code: 'http_safety.response_too_large', details: { limit_bytes: MB } });
  });

  it('reports a missing repository as upstream_status with the status', async () => {
    const error = await rejectionOf(fetchVia(client, 'acme/missing'));
    expect(error).toBeInstanceOf(RemoteSourceError);
    expect(error).toMatchObject({ reason: 'upstream_status', details: { status: 404 } });
  });

  it('refuses a URL it cannot derive an archive from, before any request', async () => {
    const error = await rejectionOf(fetchVia(client, 'https://github.com/acme/tools/issues/1'));
    expect(error).toMatchObject({ reason: 'unsupported_source' });
    expect(forge.seen).toEqual([]);
  });

  it('gives up when the caller aborts', async () => {
    const controller = new AbortController();
    controller.abort(new Error('caller gave up'));
    const error = await rejectionOf(
      fetchRemoteArchive(parseRemoteSource('acme/tools'), {
        safeFetch: (url, init) => client.fetch(url, init),
        maxBytes: MB,
        signal: controller.signal,
      }),
    );
    expect((error as Error).message).toBe('caller gave up');
  });

  it('takes the mapping from an optional provider, so a booted app (TestContext extraModules) can use it', async () => {
    @Global()
    @Module({
      providers: [{ provide: SAFE_HTTP_TEST_TRANSPORT, useValue: transport }],
      exports: [SAFE_HTTP_TEST_TRANSPORT],
    })
    class TestTransportModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [
        AppConfigModule.forRoot(configWith('github.com,codeload.github.com')),
        TestTransportModule,
        SafeHttpModule,
      ],
    }).compile();
    try {
      const zip = await fetchRemoteArchive(parseRemoteSource('acme/tools'), {
        safeFetch: (url, init) => moduleRef.get(SafeHttpClient).fetch(url, init),
        maxBytes: MB,
      });
      expect(zip.byteLength).toBe(REPO_ZIP.byteLength);
    } finally {
      await moduleRef.close();
    }
  });
});
