import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../src/api/client';

describe('ApiClient', () => {
  afterEach(() => vi.unstubAllGlobals());

  function recordRequests(): RequestInit[] {
    const seen: RequestInit[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((_url: string, init: RequestInit) => {
        seen.push(init);
        return Promise.resolve(new Response('{}', { status: 200 }));
      }),
    );
    return seen;
  }

  it("sends the console's language and the token with each call", async () => {
    const seen = recordRequests();
    const client = new ApiClient();
    client.setToken('t0k');
    await client.get('/api/agents/a');
    client.language = 'zh-CN';
    await client.patch('/api/agents/a', { name: 'n' });
    expect(seen.map((init) => init.headers)).toEqual([
      { Authorization: 'Bearer t0k' },
      { Authorization: 'Bearer t0k', 'Accept-Language': 'zh-CN', 'Content-Type': 'application/json' },
    ]);
  });

  it('turns a refusal into an ApiError with the service code and calls onUnauthorized on a 401', async () => {
    const client = new ApiClient();
    client.setToken('old');
    const unauthorized = vi.fn();
    client.onUnauthorized = unauthorized;
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(JSON.stringify({ code: 'auth.token_revoked', message: 'Sign in again.' }), {
            status: 401,
          }),
        ),
      ),
    );
    await expect(client.get('/api/auth/me')).rejects.toMatchObject({
      status: 401,
      code: 'auth.token_revoked',
      message: 'Sign in again.',
    });
    expect(unauthorized).toHaveBeenCalledTimes(1);
  });
});
