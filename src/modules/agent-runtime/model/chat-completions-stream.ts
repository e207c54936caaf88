import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { abortError } from './abortable-sleep.js';

/** Connections to the model server are kept open between calls (a run makes one call per step). */
const AGENTS = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
/** Enough of an error body to read the provider's error object; the rest is dropped. */
const ERROR_BODY_LIMIT = 64 * 1024;

export interface ChatCompletionsStreamRequest {
  /** The OpenAI-compatible base URL (`…/v1`); the request goes to `<base>/chat/completions`. */
  baseUrl: string;
  apiKey: string;
  /** The Chat Completions request as LangChain built it (`stream: true`). */
  body: object;
  /** Until the response headers arrive (as the OpenAI SDK's timeout); a streaming body is not bounded. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * A non-2xx answer, shaped as the OpenAI SDK's errors are read (`status`, `headers`, `error`), so the
 * retry policy (`describeProviderFailure`) treats both alike. The message never holds the body.
 */
export class ProviderHttpError extends Error {
  constructor(
    readonly status: number,
    readonly headers: IncomingMessage['headers'],
    readonly error: unknown,
  ) {
    super(`The model provider answered ${status}.`);
    this.name = 'ProviderHttpError';
  }
}

/** An `error` object the provider sent inside a 200 stream (as the SDK, it ends the stream). */
export class ProviderStreamError extends Error {
  constructor(readonly error: unknown) {
    super('The model provider sent an error in its stream.');
    this.name = 'ProviderStreamError';
  }
}

class RequestTimeoutError extends Error {
  constructor() {
    super('The model request timed out.');
    this.name = 'TimeoutError';
  }
}

/**
 * One streamed Chat Completions request over node's HTTP client: resolves once the response headers
 * arrive (a failure status rejects with `ProviderHttpError`, a connection failure with the socket's
 * error, a timeout with a `TimeoutError`, an abort with the signal's reason), then yields every
 * `data:` chunk of the SSE body, parsed, until `[DONE]`. What the OpenAI SDK does for this call,
 * without its fetch and web-stream layers, which cost a few milliseconds of CPU per call.
 */
export async function streamChatCompletions(
  request: ChatCompletionsStreamRequest,
): Promise<AsyncIterable<unknown>> {
  const { signal } = request;
  if (signal?.aborted) throw abortError(signal);
  const url = new URL(`${request.baseUrl.replace(/\/+$/, '')}/chat/completions`);
  const payload = JSON.stringify(request.body);
  const send = () => postOnce(url, payload, request);
  // A kept-alive connection the server closed meanwhile fails before any answer (a race with its idle
  // timeout): the request is sent once more at once on a new connection (node's documented pattern),
  // instead of waiting a backoff as for a provider failure. A call that got no answer may be made again
  // anyway; the retry policy does the same.
  const response = await send().catch((error: SendError) => {
    if (error.reusedSocket === true && !signal?.aborted && STALE_SOCKET_CODES.has(error.code ?? ''))
      return send();
    throw error;
  });
  const status = response.statusCode ?? 0;
  if (status < 200 || status >= 300)
    throw new ProviderHttpError(status, response.headers, await errorOf(response));
  return sseData(response, signal);
}

type SendError = Error & { code?: string; reusedSocket?: boolean };
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);

function postOnce(
  url: URL,
  payload: string,
  request: ChatCompletionsStreamRequest,
): Promise<IncomingMessage> {
  const { signal } = request;
  const https = url.protocol === 'https:';
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      agent: https ? AGENTS.https : AGENTS.http,
      headers: {
        authorization: `Bearer ${request.apiKey}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
        accept: 'text/event-stream',
      },
    });
    const timer = setTimeout(() => req.destroy(new RequestTimeoutError()), request.timeoutMs);
    const onAbort = () => req.destroy(abortError(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    req.once('response', (res) => {
      settle();
      resolve(res);
    });
    req.once('error', (error: SendError) => {
      settle();
      if (signal?.aborted) return reject(abortError(signal));
      error.reusedSocket = req.reusedSocket;
      reject(error);
    });
    req.end(payload);
  });
}

async function errorOf(response: IncomingMessage): Promise<unknown> {
  let body = '';
  response.setEncoding('utf8');
  for await (const chunk of response as AsyncIterable<string>) {
    if (body.length < ERROR_BODY_LIMIT) body += chunk;
  }
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    return parsed.error ?? parsed;
  } catch {
    return undefined;
  }
}

/** The parsed `data:` payloads of an SSE body; `[DONE]` ends them, an `error` object throws. */
async function* sseData(response: IncomingMessage, signal?: AbortSignal): AsyncGenerator<unknown> {
  const onAbort = () => response.destroy();
  signal?.addEventListener('abort', onAbort, { once: true });
  response.setEncoding('utf8');
  let buffer = '';
  let done = false;
  try {
    for await (const chunk of response as AsyncIterable<string>) {
      if (done) continue; // read to the end, so the connection can be reused
      buffer += chunk;
      let end: number;
      while (!done && (end = eventEnd(buffer)) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^(\r?\n)+/, '');
        const data = dataOf(event);
        if (data === null) continue;
        if (data.startsWith('[DONE]')) {
          done = true;
          continue;
        }
        const parsed = JSON.parse(data) as { error?: unknown } | null;
        if (parsed !== null && typeof parsed === 'object' && parsed.error)
          throw new ProviderStreamError(parsed.error);
        yield parsed;
      }
    }
    if (signal?.aborted) throw abortError(signal);
  } catch (error) {
    if (signal?.aborted) throw abortError(signal);
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!response.complete) response.destroy();
  }
}

/** Where the first complete event of `buffer` ends (before its blank line), or -1. */
function eventEnd(buffer: string): number {
  const lf = buffer.indexOf('\n\n');
  const crlf = buffer.indexOf('\r\n\r\n');
  if (lf < 0) return crlf;
  return crlf < 0 ? lf : Math.min(lf, crlf);
}

/** The event's `data:` lines joined (SSE), or null for an event without data (a comment, a ping). */
function dataOf(event: string): string | null {
  let data: string | null = null;
  for (const line of event.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const value = line.slice(line.startsWith('data: ') ? 6 : 5);
    data = data === null ? value : `${data}\n${value}`;
  }
  return data;
}
