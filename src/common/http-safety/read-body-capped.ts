import type { Response } from 'undici';
import { DomainError } from '../errors/domain-error.js';
import { HttpSafetyErrors } from './http-safety.errors.js';

/**
 * Reads at most `maxBytes` of the (decoded) body; past that it cancels the stream, which closes the
 * connection, and throws `http_safety.response_too_large`. Counting decoded bytes also stops
 * compression bombs.
 */
export async function readBodyCapped(response: Response, maxBytes: number): Promise<Buffer> {
  const url = response.url === '' ? undefined : response.url;
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (!response.headers.has('content-encoding') && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw HttpSafetyErrors.responseTooLarge(url, maxBytes);
  }
  if (response.body === null) return Buffer.alloc(0);

  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw HttpSafetyErrors.responseTooLarge(url, maxBytes);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw HttpSafetyErrors.connectionFailed(url ?? 'about:blank', err);
  }
  return Buffer.concat(chunks);
}
