import { Injectable } from '@nestjs/common';
import { Blob } from 'node:buffer';
import { FormData } from 'undici';
import { z } from 'zod';
import { DomainError } from '../../../common/errors/index.js';
import { readBodyCapped } from '../../../common/http-safety/read-body-capped.js';
import { SafeHttpClient } from '../../../common/http-safety/safe-http-client.js';
import { isImageType, MIME_TYPES } from '../detect-type.js';
import { assertImagePixels } from '../input-caps.js';
import { OcrSettings } from '../ocr-settings.js';
import { OcrErrors } from '../ocr.errors.js';
import type { OcrEngine, SourceDocument } from './ocr-engine.js';
import { HttpSafetyErrorCode } from '../../../common/http-safety/index.js';

const NOT_CONFIGURED = 'no OCR service is configured (OCR_HTTP_URL)';
const jsonAnswer = z.looseObject({ markdown: z.string() });

/** The service's reply: JSON `{markdown}`, or the Markdown (any text type) as the body itself. */
function markdownOf(contentType: string | null, body: Buffer): string {
  const text = body.toString('utf8');
  if (!/[/+]json\b/i.test(contentType ?? '')) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw OcrErrors.remoteFailed('its JSON answer does not parse');
  }
  const answer = jsonAnswer.safeParse(parsed);
  if (!answer.success) throw OcrErrors.remoteFailed('its JSON answer has no "markdown" string');
  return answer.data.markdown;
}

/**
 * The service's address is the operator's business: transport failures are reported without it.
 * Anything else (the caller's abort reason, our own errors) passes through.
 */
function withoutAddress(error: unknown, timeoutMs: number): unknown {
  if (!(error instanceof DomainError) || !error.code.startsWith('http_safety.')) return error;
  switch (error.code) {
    case HttpSafetyErrorCode.TIMEOUT:
      return OcrErrors.remoteFailed(`it did not answer within ${Math.round(timeoutMs / 1000)} s`);
    case HttpSafetyErrorCode.RESPONSE_TOO_LARGE:
      return OcrErrors.remoteFailed('its answer is larger than allowed');
    case HttpSafetyErrorCode.URL_NOT_ALLOWED:
      return OcrErrors.remoteFailed(
        'its address is not allowed (a private address must be listed in ALLOW_PRIVATE_NETWORK_TARGETS)',
      );
    default:
      return OcrErrors.remoteFailed('it could not be reached');
  }
}

/**
 * An external OCR service. Protocol: `POST <OCR_HTTP_URL>` with `multipart/form-data` holding the
 * document as part `file` (its file name and MIME type) and its detected type as field `type`
 * (`pdf`, `docx`, `xlsx`, `pptx`, `png`, `jpeg`, `webp`, `bmp`); `Authorization: Bearer <OCR_HTTP_API_KEY>`
 * when a key is set. A 2xx answer is `application/json` `{"markdown": "…"}` or the Markdown itself
 * (`text/markdown`, `text/plain`). Sent through the SSRF-safe client, with a deadline and a size cap.
 */
@Injectable()
export class HttpEngine implements OcrEngine {
  readonly name = 'http';

  constructor(
    private readonly settings: OcrSettings,
    private readonly http: SafeHttpClient,
  ) {}

  unavailableReason(): string | null {
    return this.settings.httpUrl === null ? NOT_CONFIGURED : null;
  }

  async convert(document: SourceDocument, signal: AbortSignal): Promise<string> {
    const { httpUrl, httpApiKey, httpTimeoutMs, httpMaxResponseBytes } = this.settings;
    if (httpUrl === null) throw OcrErrors.engineUnavailable(this.name, NOT_CONFIGURED);
    if (isImageType(document.type)) assertImagePixels(document.bytes, this.settings.maxImagePixels);

    const form = new FormData();
    form.append('file', new Blob([document.bytes], { type: MIME_TYPES[document.type] }), document.fileName);
    form.append('type', document.type);
    const headers: Record<string, string> = { accept: 'application/json, text/markdown, text/plain' };
    if (httpApiKey !== null) headers.authorization = `Bearer ${httpApiKey.reveal()}`;
    try {
      const { response } = await this.http.fetch(httpUrl, {
        method: 'POST',
        body: form,
        headers,
        signal,
        timeoutMs: httpTimeoutMs,
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw OcrErrors.remoteFailed(`it answered HTTP ${response.status}`, response.status);
      }
      const body = await readBodyCapped(response, httpMaxResponseBytes);
      return markdownOf(response.headers.get('content-type'), body);
    } catch (error) {
      throw withoutAddress(error, httpTimeoutMs);
    }
  }
}
