import { registerDecorator, type ValidationOptions } from 'class-validator';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Visible ASCII, spaces and tabs: no CR/LF (header injection), no NUL. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\uffff]{0,8192}$/;
const MAX_HEADERS = 50;
/** Set by the transport itself; a configured value would break or hijack the exchange. */
const RESERVED = new Set([
  'host',
  'content-length',
  'content-type',
  'accept',
  'connection',
  'transfer-encoding',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);

export function isHeaderMap(value: unknown): value is Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  if (entries.length > MAX_HEADERS) return false;
  const seen = new Set<string>();
  for (const [name, header] of entries) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name) || RESERVED.has(lower) || seen.has(lower)) return false;
    if (typeof header !== 'string' || !HEADER_VALUE.test(header)) return false;
    seen.add(lower);
  }
  return true;
}

/** An object of HTTP header names to string values (at most 50, no reserved or duplicate names). */
export function IsHeaderMap(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isHeaderMap',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `$property must map at most ${MAX_HEADERS} distinct header names (no transport headers) to single-line strings`,
        ...options,
      },
      validator: { validate: isHeaderMap },
    });
}
