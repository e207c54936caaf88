import { ApiError, apiErrorFrom } from './api-error';

type Query = Record<string, string | number | boolean | undefined>;

/**
 * The one way the console talks to the API: the bearer token on every call, JSON in and out, every
 * failure an ApiError. A 401 (the token expired or was revoked) calls `onUnauthorized` before it throws.
 */
export class ApiClient {
  private token: string | null = null;
  onUnauthorized: () => void = () => undefined;
  /** The console's language, sent as `Accept-Language` so what the service words (forms) matches it. */
  language: string | null = null;

  setToken(token: string | null): void {
    this.token = token;
  }

  authHeaders(): Record<string, string> {
    return this.token ? { Authorization: `Bearer ${this.token}` } : {};
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.send<T>('GET', withQuery(path, query));
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.send<T>('POST', path, body);
  }

  patch<T>(path: string, body: unknown): Promise<T> {
    return this.send<T>('PATCH', path, body);
  }

  put<T>(path: string, body: unknown): Promise<T> {
    return this.send<T>('PUT', path, body);
  }

  delete(path: string, query?: Query): Promise<void> {
    return this.send<void>('DELETE', withQuery(path, query));
  }

  /** A multipart upload of one file under the form field `file`. */
  upload<T>(path: string, file: File): Promise<T> {
    const form = new FormData();
    form.append('file', file, file.name);
    return this.send<T>('POST', path, form);
  }

  /** A raw authenticated GET (downloads): the response, or an ApiError when it failed. */
  async fetchRaw(path: string, query?: Query): Promise<Response> {
    const response = await fetch(withQuery(path, query), { headers: this.authHeaders() });
    if (!response.ok) throw await this.failure(response);
    return response;
  }

  private async send<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { ...this.authHeaders() };
    if (this.language) headers['Accept-Language'] = this.language;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    let response: Response;
    try {
      response = await fetch(path, { method, headers, body: payload });
    } catch {
      throw new ApiError(0, 'network.unreachable', 'The service cannot be reached.');
    }
    if (!response.ok) throw await this.failure(response);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  private async failure(response: Response): Promise<ApiError> {
    const error = await apiErrorFrom(response);
    if (error.status === 401 && this.token) this.onUnauthorized();
    return error;
  }
}

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export const api = new ApiClient();
