import type { UndiciRequest } from '@opentelemetry/instrumentation-undici';

/**
 * Whether a fetch already names its trace (`traceparent` set by the caller, who made a span of its own
 * for the call): the fetch instrumentation leaves it alone rather than adding a second `traceparent`,
 * which a receiver reads as one invalid value. Headers are `name: value\r\n` text (undici 5) or
 * `[name, value, …]` (undici 6).
 */
export function carriesTraceHeader(request: Pick<UndiciRequest, 'headers'>): boolean {
  const { headers } = request;
  if (typeof headers === 'string') return /(^|\r\n)traceparent:/i.test(headers);
  for (let i = 0; i < headers.length; i += 2)
    if (String(headers[i]).toLowerCase() === 'traceparent') return true;
  return false;
}
