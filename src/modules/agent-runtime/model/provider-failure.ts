/**
 * What a failed model request tells us, read from the errors the OpenAI SDK throws (as LangChain passes
 * them on): an HTTP status with headers, a connection failure, a timeout. Duck-typed, so any
 * OpenAI-compatible client's errors are read the same way. The provider's message is never kept (a 401
 * message can echo part of the API key): only a 400's is matched, to tell a context overflow.
 */
export type ProviderFailure =
  | {
      readonly type: 'http';
      readonly status: number;
      readonly retryAfter: string | undefined;
      /** A 400 saying the request is longer than the model's context window. */
      readonly contextOverflow?: boolean;
    }
  | { readonly type: 'connection'; readonly reason: 'reset' | 'timeout' }
  | { readonly type: 'other' };

interface ErrorLike {
  name?: unknown;
  status?: unknown;
  headers?: unknown;
  cause?: unknown;
  /** The provider's error object (`{code, message, …}`), as the SDK and our stream client keep it. */
  error?: unknown;
}

const CONTEXT_OVERFLOW_MESSAGE =
  /context[ _-]?(length|window)|maximum context|too many tokens|prompt is too long|exceeds? the (model'?s? )?max/i;

/** OpenAI's `context_length_exceeded`, or a message saying so (vLLM, Ollama, other compatible servers). */
function isContextOverflow(e: ErrorLike): boolean {
  const body = (typeof e.error === 'object' && e.error !== null ? e.error : {}) as {
    code?: unknown;
    message?: unknown;
  };
  if (body.code === 'context_length_exceeded') return true;
  const message =
    typeof body.message === 'string' ? body.message : typeof e.error === 'string' ? e.error : '';
  return CONTEXT_OVERFLOW_MESSAGE.test(message);
}

function retryAfterHeader(headers: unknown): string | undefined {
  if (headers instanceof Headers) return headers.get('retry-after') ?? undefined;
  if (typeof headers === 'object' && headers !== null) {
    const value = (headers as Record<string, unknown>)['retry-after'];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

const TIMEOUT_ERROR_NAMES = new Set(['TimeoutError', 'APIConnectionTimeoutError']);
const CONNECTION_ERROR_NAMES = new Set(['APIConnectionError', 'FetchError']);
const CONNECTION_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'UND_ERR_SOCKET',
  'ETIMEDOUT',
]);

export function describeProviderFailure(error: unknown): ProviderFailure {
  // Walk the cause chain: LangChain may wrap the SDK error (context overflow keeps it as `cause`).
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const e = current as ErrorLike & { code?: unknown; constructor?: { name?: string } };
    if (typeof e.status === 'number')
      return {
        type: 'http',
        status: e.status,
        retryAfter: retryAfterHeader(e.headers),
        ...(e.status === 400 && isContextOverflow(e) && { contextOverflow: true }),
      };
    const names = [e.name, e.constructor?.name].filter((n): n is string => typeof n === 'string');
    if (names.some((n) => TIMEOUT_ERROR_NAMES.has(n))) return { type: 'connection', reason: 'timeout' };
    if (
      names.some((n) => CONNECTION_ERROR_NAMES.has(n)) ||
      (typeof e.code === 'string' && CONNECTION_ERROR_CODES.has(e.code))
    )
      return { type: 'connection', reason: 'reset' };
    current = e.cause;
  }
  if ((error as ErrorLike | undefined)?.name === 'ContextOverflowError')
    return { type: 'http', status: 400, retryAfter: undefined, contextOverflow: true };
  return { type: 'other' };
}
