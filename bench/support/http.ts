import { request } from 'node:http';

export interface HttpResponse {
  status: number;
  body: string;
}

/**
 * One request on a fresh connection (no keep-alive), so the bench never holds a socket that could
 * slow a server's shutdown.
 */
export function httpRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {},
): Promise<HttpResponse> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        agent: false,
        headers: {
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
          ...options.headers,
        },
        timeout: options.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`timeout after ${options.timeoutMs ?? 10_000} ms: ${url}`)),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A JSON request that must answer `expectStatus`; returns the parsed body. */
export async function httpJson<T>(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; expectStatus: number },
): Promise<T> {
  const res = await httpRequest(url, options);
  if (res.status !== options.expectStatus) {
    throw new Error(
      `${options.method ?? 'GET'} ${url}: expected ${options.expectStatus}, got ${res.status}: ${res.body.slice(0, 500)}`,
    );
  }
  return JSON.parse(res.body) as T;
}
