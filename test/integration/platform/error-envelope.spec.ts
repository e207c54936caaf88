import { Controller, Get, Module, Post } from '@nestjs/common';
import { Public } from '../../../src/common/auth/auth.decorators';
import { DomainError } from '../../../src/common/errors/domain-error';
import { TestContext } from '../../support/test-app';

@Controller('probe')
class ProbeController {
  @Public()
  @Get('crash')
  crash(): never {
    throw new Error('connect to postgres://app:hunter2@db failed at /srv/app/secret.ts:12');
  }

  @Public()
  @Get('slow-down')
  slowDown(): never {
    throw new DomainError('rate_limited', 'probe.slow_down', 'Slow down.', { retryAfterSeconds: 7 });
  }

  @Public()
  @Post('echo')
  echo(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('the error envelope', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start({ HTTP_BODY_LIMIT_BYTES: '2048' }, [ProbeModule]);
  });
  afterAll(() => ctx.close());

  it('has the same shape for every error and carries the response request id', async () => {
    const res = await ctx.http.get('/api/auth/me');
    expect(res.status).toBe(401);
    expect(Object.keys(res.body).sort()).toEqual(['code', 'details', 'message', 'request_id', 'status_code']);
    expect(res.body.status_code).toBe(401);
    expect(res.body.request_id).toBe(res.headers['x-request-id']);
  });

  it('echoes a caller X-Request-Id and replaces a malformed one', async () => {
    const echoed = await ctx.http.get('/api/health').set('X-Request-Id', 'trace-abc.123');
    expect(echoed.headers['x-request-id']).toBe('trace-abc.123');
    const replaced = await ctx.http.get('/api/auth/me').set('X-Request-Id', 'bad id with spaces');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced.body.request_id).toBe(replaced.headers['x-request-id']);
    const tooLong = await ctx.http.get('/api/health').set('X-Request-Id', 'a'.repeat(129));
    expect(tooLong.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers 500 without internals for an unexpected error', async () => {
    const res = await ctx.http.get('/api/probe/crash');
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ status_code: 500, code: 'common.internal_error', details: null });
    expect(JSON.stringify(res.body)).not.toMatch(/hunter2|postgres|secret\.ts|stack/);
  });

  it('sends Retry-After for a rate-limited domain error', async () => {
    const res = await ctx.http.get('/api/probe/slow-down');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.body.code).toBe('probe.slow_down');
  });

  it('answers 413 for a body over the configured limit and 400 for malformed JSON', async () => {
    const big = await ctx.http
      .post('/api/probe/echo')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ data: 'x'.repeat(4096) }));
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'common.payload_too_large', details: { limit_bytes: 2048 } });
    expect(big.body.request_id).toBe(big.headers['x-request-id']);

    const small = await ctx.http.post('/api/probe/echo').send({ data: 'x'.repeat(100) });
    expect(small.status).toBe(201);

    const malformed = await ctx.http
      .post('/api/probe/echo')
      .set('Content-Type', 'application/json')
      .send('{"a":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('common.malformed_json');
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const res = await ctx.http.get('/api/no-such-route');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('common.not_found');
  });

  it('lists the fields that failed validation', async () => {
    const res = await ctx.http.post('/api/auth/token').send({ username: 42, password: '', role: 'admin' });
    expect(res.status).toBe(400);
    const fields = res.body.details.fields.map((f: { field: string }) => f.field).sort();
    expect(fields).toEqual(['password', 'role', 'username']);
  });
});
