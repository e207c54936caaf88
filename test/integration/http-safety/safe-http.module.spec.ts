import { randomBytes } from 'node:crypto';
import { Test } from '@nestjs/testing';
import { SafeHttpClient } from '../../../src/common/http-safety/safe-http-client';
import { SafeHttpModule } from '../../../src/common/http-safety/safe-http.module';
import { AppConfigModule } from '../../../src/config/config.module';
import { parseConfig } from '../../../src/config/parse-config';
import { startLocalServer, type LocalServer } from './local-servers';

describe('SafeHttpModule', () => {
  let server: LocalServer;

  beforeAll(async () => {
    server = await startLocalServer((_req, res) => res.end('pong'));
  });
  afterAll(() => server.close());

  it('provides a SafeHttpClient built from the global AppConfig allowlist', async () => {
    const config = parseConfig({
      DATABASE_URL: 'postgres://x@127.0.0.1/x',
      REDIS_URL: 'redis://127.0.0.1:6379',
      JWT_SECRET: randomBytes(32).toString('hex'),
      SECRETS_KEY: randomBytes(32).toString('base64'),
      ALLOW_PRIVATE_NETWORK_TARGETS: `127.0.0.1:${server.port}`,
    });
    const moduleRef = await Test.createTestingModule({
      imports: [AppConfigModule.forRoot(config), SafeHttpModule],
    }).compile();
    try {
      const client = moduleRef.get(SafeHttpClient);
      const { response } = await client.fetch(`${server.origin}/ping`);
      expect(await response.text()).toBe('pong');
      expect(() => client.checkUrl(`http://127.0.0.1:${server.port + 1}/`)).toThrow(
        expect.objectContaining({ code: 'http_safety.url_not_allowed' }),
      );
    } finally {
      await moduleRef.close();
    }
    expect(server.requests).toHaveLength(1);
  });
});
