import type { ErrorCode } from './domain-error.js';

const declared = new Set<ErrorCode>();

/**
 * Declares a module's stable codes: wraps its `*ErrorCode` constant where it is defined, so every code
 * is in the catalog (the Swagger document lists it) as soon as its module is loaded, with no list to
 * keep beside it.
 */
export function declareErrorCodes<const T extends Record<string, ErrorCode>>(codes: T): T {
  for (const code of Object.values(codes)) declared.add(code);
  return codes;
}

/** Every declared code, sorted. */
export function declaredErrorCodes(): ErrorCode[] {
  return [...declared].sort();
}
