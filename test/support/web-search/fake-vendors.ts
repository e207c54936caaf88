import type { ServerResponse } from 'node:http';
import {
  type LocalServer,
  type RecordedRequest,
  startLocalServer,
} from '../../integration/http-safety/local-servers';

/**
 * Local servers speaking the vendors' wire formats (as documented by each vendor): they check the
 * path, the method and the Bearer key, answer from a script, and record every request.
 */
export interface FakeVendor {
  readonly server: LocalServer;
  readonly baseUrl: string;
  /** The key the fake accepts; any other Bearer token is refused with the vendor's 401. */
  key: string;
  /** Replaces the next answers (status + JSON body); cleared by `reset`. */
  failWith(status: number, body: unknown): void;
  /** Requests to the vendor's endpoints, bodies parsed. */
  calls(path?: string): { path: string; authorization: string | undefined; body: any }[];
  reset(): void;
  close(): Promise<void>;
}

interface FakeState {
  key: string;
  failure: { status: number; body: unknown } | null;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function startFake(
  key: string,
  unauthorized: unknown,
  routes: Record<string, (body: any) => { status: number; body: unknown }>,
): Promise<FakeVendor> {
  const state: FakeState = { key, failure: null };
  const server = await startLocalServer((req, res, raw) => {
    const route = routes[req.url ?? ''];
    if (req.method !== 'POST' || route === undefined) return send(res, 404, { detail: 'Not Found' });
    if (req.headers.authorization !== `Bearer ${state.key}`) return send(res, 401, unauthorized);
    if (state.failure !== null) return send(res, state.failure.status, state.failure.body);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return send(res, 400, { detail: 'invalid JSON' });
    }
    const answer = route(body);
    send(res, answer.status, answer.body);
  });
  const parse = (r: RecordedRequest) => {
    try {
      return JSON.parse(r.body) as unknown;
    } catch {
      return r.body;
    }
  };
  return {
    server,
    baseUrl: server.origin,
    get key() {
      return state.key;
    },
    set key(value: string) {
      state.key = value;
    },
    failWith: (status, body) => {
      state.failure = { status, body };
    },
    calls: (path) =>
      server.requests
        .filter((r) => path === undefined || r.url === path)
        .map((r) => ({ path: r.url, authorization: r.headers.authorization, body: parse(r) })),
    reset: () => {
      state.failure = null;
      server.requests.length = 0;
    },
    close: () => server.close(),
  };
}

export interface TavilyScript {
  results: Record<string, unknown>[];
  /** url → raw_content (Markdown); a URL not listed is a failed result. */
  pages: Record<string, string>;
}

/** Tavily: `POST /search` (max_results 0-20) and `POST /extract` (`{results, failed_results}`). */
export async function startFakeTavily(key: string, script: TavilyScript): Promise<FakeVendor> {
  return startFake(
    key,
    { detail: { error: 'Unauthorized: missing or invalid API key.' } },
    {
      '/search': (body) => {
        if (typeof body.query !== 'string' || body.query === '') {
          return { status: 400, body: { detail: { error: 'Query is missing.' } } };
        }
        const max = body.max_results ?? 5;
        if (max < 0 || max > 20)
          return { status: 400, body: { detail: { error: 'max_results must be 0-20' } } };
        return {
          status: 200,
          body: {
            query: body.query,
            answer: null,
            images: [],
            results: script.results.slice(0, max),
            response_time: 0.42,
            request_id: 'req-tavily-1',
          },
        };
      },
      '/extract': (body) => {
        const urls: string[] = Array.isArray(body.urls) ? body.urls : [body.urls];
        return {
          status: 200,
          body: {
            results: urls
              .filter((u) => script.pages[u] !== undefined)
              .map((u) => ({ url: u, raw_content: script.pages[u], images: [] })),
            failed_results: urls
              .filter((u) => script.pages[u] === undefined)
              .map((u) => ({ url: u, error: 'Failed to fetch url' })),
            response_time: 0.3,
            request_id: 'req-tavily-2',
          },
        };
      },
    },
  );
}

export interface DeepSeekScript {
  results: Record<string, unknown>[];
  /** url → {title, content}; a URL not listed answers with empty content. */
  pages: Record<string, { title: string; content: string }>;
}

/** DeepSeek: `POST /v1/tools/search` (query 1-128 chars, count 1-50) and `POST /v1/tools/fetch`. */
export async function startFakeDeepSeek(key: string, script: DeepSeekScript): Promise<FakeVendor> {
  const invalid = (message: string) => ({
    status: 400,
    body: { error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } },
  });
  return startFake(
    key,
    { error: { message: 'Authentication Fails, Your api key is invalid', type: 'authentication_error' } },
    {
      '/v1/tools/search': (body) => {
        const query: unknown = body.query;
        if (typeof query !== 'string' || query.trim() === '' || [...query].length > 128) {
          return invalid('query must be 1-128 characters');
        }
        const count = body.count ?? 10;
        if (!Number.isInteger(count) || count < 1 || count > 50) return invalid('count must be 1-50');
        const withContent = body.need_content === true;
        return {
          status: 200,
          body: {
            results: script.results
              .slice(0, count)
              .map((r) => ({ ...r, content: withContent ? (r.content ?? '') : '' })),
          },
        };
      },
      '/v1/tools/fetch': (body) => {
        if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url)) return invalid('url is invalid');
        const page = script.pages[body.url];
        return { status: 200, body: page ?? { title: '', content: '' } };
      },
    },
  );
}

export interface DoubaoScript {
  webResults: Record<string, unknown>[] | null;
}

/** Doubao Custom search: `POST /search_api/web_search`; errors in `ResponseMetadata.Error`. */
export async function startFakeDoubao(key: string, script: DoubaoScript): Promise<FakeVendor> {
  const metadata = (error?: { Code: string; Message: string }) => ({
    RequestId: 'req-doubao-1',
    Action: 'WebSearch',
    Version: '2025-01-01',
    Service: 'askecho',
    Region: 'cn-north-1',
    ...(error === undefined ? {} : { Error: error }),
  });
  return startFake(
    key,
    { ResponseMetadata: metadata({ Code: '10403', Message: 'invalid api key' }), Result: null },
    {
      '/search_api/web_search': (body) => {
        const query: unknown = body.Query;
        const count = body.Count ?? 10;
        if (typeof query !== 'string' || query.length < 1 || query.length > 100 || count < 1 || count > 50) {
          return {
            status: 200,
            body: { ResponseMetadata: metadata({ Code: '10400', Message: 'invalid param' }), Result: null },
          };
        }
        const results = script.webResults?.slice(0, count) ?? null;
        return {
          status: 200,
          body: {
            ResponseMetadata: metadata(),
            Result: {
              ResultCount: results?.length ?? 0,
              WebResults: results,
              SearchContext: { OriginQuery: query, SearchType: 'web' },
              TimeCost: 321,
              LogId: 'log-1',
            },
          },
        };
      },
    },
  );
}
