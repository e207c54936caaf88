import type { ErrorCode } from './domain-error.js';

const declared = new Set<ErrorCode>();

/**
 * Declares a module's stable codes, called on its `*ErrorCode` constant right where it is defined, so
 * every code is in the catalog (the Swagger document lists it) as soon as its module is loaded, with no
 * list to keep beside it.
 */
export function declareErrorCodes(codes: Readonly<Record<string, ErrorCode>>): void {
  for (const code of Object.values(codes)) declared.add(code);
}

/** Every declared code, sorted. */
export function declaredErrorCodes(): ErrorCode[] {
  return [...declared].sort();
}
