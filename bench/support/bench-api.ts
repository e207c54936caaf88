import { ADMIN_PASSWORD, ADMIN_USERNAME } from './bench-env.js';
import { httpRequest } from './http.js';

/** The few API calls the agent-run benches make, as the bench's superadmin. */
export class BenchApi {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  /** Logs in as the bench's superadmin, or as `as` (a user made by `createUser`). */
  static async login(baseUrl: string, as?: { username: string; password: string }): Promise<BenchApi> {
    const res = await httpRequest(`${baseUrl}/api/auth/token`, {
      method: 'POST',
      body: as ?? { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      timeoutMs: 60_000,
    });
    if (res.status !== 200) throw new Error(`login → ${res.status}: ${res.body.slice(0, 300)}`);
    return new BenchApi(baseUrl, (JSON.parse(res.body) as { access_token: string }).access_token);
  }

  /** As an admin: a new user (role `user`), logged in. */
  async createUser(username: string, password: string): Promise<BenchApi> {
    await this.post('/api/users', { username, password }, 201);
    return BenchApi.login(this.baseUrl, { username, password });
  }

  get bearer(): string {
    return this.token;
  }

  async post<T>(path: string, body: unknown, expected: number): Promise<T> {
    const res = await httpRequest(`${this.baseUrl}${path}`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${this.token}` },
      timeoutMs: 30_000,
    });
    if (res.status !== expected) throw new Error(`POST ${path} → ${res.status}: ${res.body.slice(0, 300)}`);
    return JSON.parse(res.body) as T;
  }

  newThread(): Promise<{ id: string }> {
    return this.post('/api/threads', { agent_slug: 'default-chatbot' }, 201);
  }

  startRun(threadId: string, input: string): Promise<{ run_id: string; stream_url: string }> {
    return this.post(`/api/threads/${threadId}/runs`, { input }, 202);
  }
}
