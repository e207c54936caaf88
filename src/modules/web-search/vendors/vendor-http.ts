import { Injectable } from '@nestjs/common';
import { DomainError } from '../../../common/errors/index.js';
import { readBodyCapped, SafeHttpClient } from '../../../common/http-safety/index.js';
import { WebSearchErrors } from '../web-search.errors.js';
import type { VendorAccess, VendorName } from '../web-search.types.js';

export const VENDOR_TIMEOUT_MS = 30_000;
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** Removes the key wherever a vendor echoes it (error texts are shown to models and admins). */
export function withoutKey(text: string, apiKey: string): string {
  return apiKey.length === 0 ? text : text.split(apiKey).join('[redacted]');
}

function vendorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const candidates = [
      parsed.detail,
      (parsed.detail as Record<string, unknown> | undefined)?.error,
      (parsed.error as Record<string, unknown> | undefined)?.message,
      parsed.error,
      parsed.message,
      ((parsed.ResponseMetadata as Record<string, unknown> | undefined)?.Error as Record<string, unknown>)
        ?.Message,
    ];
    const found = candidates.find((c): c is string => typeof c === 'string' && c.trim() !== '');
    if (found !== undefined) return found;
  } catch {
    // not JSON: the text itself
  }
  return body.trim() === '' ? 'no details' : body.trim();
}

/**
 * POSTs JSON to a vendor endpoint through the SSRF-guarded client with the key as a Bearer token, and
 * returns the parsed JSON. Failures become `web_search.*` errors that never hold the key or the
 * deployment's base URL.
 */
@Injectable()
export class VendorHttp {
  constructor(private readonly http: SafeHttpClient) {}

  async postJson(
    vendor: VendorName,
    access: VendorAccess,
    path: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const url = new URL(
      path.replace(/^\//, ''),
      access.baseUrl.endsWith('/') ? access.baseUrl : `${access.baseUrl}/`,
    );
    let status: number;
    let text: string;
    try {
      const { response } = await this.http.fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${access.apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(body),
        signal,
        timeoutMs: VENDOR_TIMEOUT_MS,
        maxRedirects: 0,
      });
      status = response.status;
      text = (await readBodyCapped(response, MAX_RESPONSE_BYTES)).toString('utf8');
    } catch (error) {
      throw this.transportError(vendor, error, signal);
    }
    if (status === 401 || status === 403) throw WebSearchErrors.vendorRejectedKey(vendor, status);
    if (status === 402 || status === 429 || status === 432 || status === 433) {
      throw WebSearchErrors.vendorRateLimited(vendor, status);
    }
    if (status < 200 || status >= 300) {
      throw WebSearchErrors.vendorFailed(vendor, status, withoutKey(vendorMessage(text), access.apiKey));
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw WebSearchErrors.vendorBadResponse(vendor, 'the body is not JSON');
    }
  }

  private transportError(vendor: VendorName, error: unknown, signal?: AbortSignal): unknown {
    if (signal?.aborted) return signal.reason as unknown;
    return error instanceof DomainError
      ? WebSearchErrors.fromTransport(vendor, error, VENDOR_TIMEOUT_MS)
      : error;
  }
}
