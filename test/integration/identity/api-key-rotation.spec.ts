import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createHttpApp } from '../../../src/bootstrap/create-http-app';
import { parseConfig } from '../../../src/config/parse-config';
import { TestContext } from '../../support/test-app';
import { baseTestEnvironment } from '../../support/test-env';

describe('API keys across a SECRETS_KEY rotation', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start();
  });
  afterAll(() => ctx.close());

  async function withRotatedApp(
    previousKeys: string,
    run: (http: ReturnType<typeof request>) => Promise<void>,
  ) {
    const env = {
      ...baseTestEnvironment(ctx.databaseName),
      JWT_SECRET: ctx.config.auth.jwtSecret.reveal(),
      SECRETS_KEY: randomBytes(32).toString('base64'),
      SECRETS_PREVIOUS_KEYS: previousKeys,
    };
    const app = await createHttpApp(parseConfig(env));
    await app.init();
    try {
      await run(request(app.getHttpServer()));
    } finally {
      await app.close();
    }
  }

  it('keeps old keys working; a replay returns the original key while the old secret is kept, else 409', async () => {
    const owner = await ctx.newUser();
    const body = { name: 'before rotation', request_id: 'rotate-1' };
    const created = await ctx.http
      .post('/api/api-keys')
      .set('Authorization', `Bearer ${owner.token}`)
      .send(body);
    expect(created.status).toBe(201);
    const oldSecret = ctx.config.secrets.key.reveal();

    await withRotatedApp(oldSecret, async (http) => {
      const me = await http.get('/api/auth/me').set('Authorization', `Bearer ${created.body.key}`);
      expect(me.status).toBe(200);
      const replay = await http
        .post('/api/api-keys')
        .set('Authorization', `Bearer ${owner.token}`)
        .send(body);
      expect(replay.status).toBe(201);
      expect(replay.body.key).toBe(created.body.key);
    });

    await withRotatedApp('', async (http) => {
      const me = await http.get('/api/auth/me').set('Authorization', `Bearer ${created.body.key}`);
      expect(me.status).toBe(200);
      const replay = await http
        .post('/api/api-keys')
        .set('Authorization', `Bearer ${owner.token}`)
        .send(body);
      expect(replay.status).toBe(409);
      expect(replay.body.code).toBe('api_keys.replay_unavailable');
      expect(JSON.stringify(replay.body)).not.toContain('yxk_');
    });
  });
});
