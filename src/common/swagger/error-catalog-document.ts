import type { OpenAPIObject } from '@nestjs/swagger';
import { AuthErrorCode } from '../auth/auth.errors.js';
import { CommonErrorCode } from '../errors/common.errors.js';
import type { ErrorCode } from '../errors/domain-error.js';
import { errorDescription } from './api-errors.decorator.js';

const ENVELOPE_REF = '#/components/schemas/ErrorEnvelopeDto';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const CODE = /`([a-z][a-z_]*\.[a-z][a-z0-9_]*)`/g;

type Spec = [status: number, ...codes: ErrorCode[]];
type OperationObject = NonNullable<OpenAPIObject['paths'][string]['get']>;
interface ResponseObject {
  description: string;
  content?: Record<string, { schema?: { $ref?: string } }>;
  'x-error-codes'?: string[];
}

/**
 * What any route may answer besides its own codes, from the layers every request crosses: the URL and
 * body checks, authentication, the database and Redis, a write transaction that lost a race.
 */
function commonSpecs(method: string, operation: OperationObject): Spec[] {
  const specs: Spec[] = [
    [400, CommonErrorCode.VALIDATION_FAILED],
    [503, CommonErrorCode.DEPENDENCY_UNAVAILABLE],
  ];
  if ((operation.security ?? []).length > 0) {
    specs.push([401, AuthErrorCode.MISSING_CREDENTIALS, AuthErrorCode.INVALID_TOKEN]);
  }
  // The JSON parser reads a write's body before routing, whether the route takes one or not.
  if (method !== 'get') {
    specs.push(
      [400, CommonErrorCode.MALFORMED_JSON],
      [413, CommonErrorCode.PAYLOAD_TOO_LARGE],
      [409, CommonErrorCode.CONCURRENT_UPDATE],
    );
  }
  return specs;
}

/** The declared codes a description names (in backticks; `details.fields` is a field, not a code). */
const codesIn = (description: string, declared: readonly ErrorCode[]): ErrorCode[] =>
  [...description.matchAll(CODE)].map((m) => m[1] as ErrorCode).filter((code) => declared.includes(code));

const isEnvelope = (response: ResponseObject): boolean =>
  Object.values(response.content ?? {}).some((media) => media.schema?.$ref === ENVELOPE_REF);

/**
 * The document's error listing, built from what is declared rather than kept by hand: the envelope's
 * `code` enumerates every declared code (`declareErrorCodes`), and each operation's error responses
 * get the codes every route may answer; every error response then names its codes in `x-error-codes`
 * (its description names them too).
 */
export function documentErrorCodes(document: OpenAPIObject, declared: readonly ErrorCode[]): OpenAPIObject {
  const envelope = document.components?.schemas?.ErrorEnvelopeDto as
    { properties?: Record<string, Record<string, unknown>> } | undefined;
  const code = envelope?.properties?.code;
  if (code !== undefined) code.enum = [...declared];
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      const responses = operation.responses as Record<string, ResponseObject>;
      for (const [status, ...codes] of commonSpecs(method, operation)) {
        const existing = responses[status];
        if (existing !== undefined && !isEnvelope(existing)) continue;
        const named = existing === undefined ? [] : codesIn(existing.description, declared);
        const all = [...new Set([...named, ...codes])] as ErrorCode[];
        responses[status] = {
          ...existing,
          description: errorDescription(Number(status), all),
          content: existing?.content ?? { 'application/json': { schema: { $ref: ENVELOPE_REF } } },
        };
      }
      for (const response of Object.values(responses)) {
        if (!isEnvelope(response)) continue;
        response['x-error-codes'] = [...new Set(codesIn(response.description, declared))].sort();
      }
    }
  }
  return document;
}
