import { ADMIN_PASSWORD, ADMIN_USERNAME } from './bench-env.js';
import { httpRequest } from './http.js';

/** The few API calls the agent-run benches make, as the bench's superadmin. */
export class BenchApi {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  static async login(baseUrl: string): Promise<BenchApi> {
    const res = await httpRequest(`${baseUrl}/api/auth/token`, {
      method: 'POST',
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    return new BenchApi(baseUrl, (JSON.parse(res.body) as { access_token: string }).access_token);
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
