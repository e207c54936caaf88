import { Global, Module } from '@nestjs/common';
import { strToU8, zipSync } from 'fflate';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SAFE_HTTP_TEST_TRANSPORT, type TestTransport } from '../../src/common/http-safety';
import { skillMd } from './skills';

const TLS = join(__dirname, 'fixtures/tls');
/** acme/tools: two skills under `tools-HEAD/skills/`. */
export const REPO_ZIP = zipSync({
  'tools-HEAD/README.md': strToU8('# tools'),
  'tools-HEAD/skills/remote-a/SKILL.md': strToU8(skillMd('remote-a')),
  'tools-HEAD/skills/remote-b/SKILL.md': strToU8(skillMd('remote-b')),
});

/** github.com and codeload.github.com, served by a local https server (test CA), requests recorded. */
export async function startForge() {
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

/** A global module handing the guarded fetch the mapping of github.com to the forge. */
export function transportModule(transport: TestTransport) {
  @Global()
  @Module({
    providers: [{ provide: SAFE_HTTP_TEST_TRANSPORT, useValue: transport }],
    exports: [SAFE_HTTP_TEST_TRANSPORT],
  })
  class TestTransportModule {}
  return TestTransportModule;
}

/** The mapping and the test CA for `forge`. */
export const forgeTransport = (port: number): TestTransport => ({
  hosts: {
    'github.com:443': { address: '127.0.0.1', port },
    'codeload.github.com:443': { address: '127.0.0.1', port },
  },
  ca: readFileSync(join(TLS, 'ca.pem'), 'utf8'),
});
