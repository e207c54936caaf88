/**
 * A URL safe to log or return to a client: no userinfo, no query string (it often carries tokens),
 * no fragment. Unparseable input is not echoed at all.
 */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url.toString());
  } catch {
    return '[invalid url]';
  }
  const query = parsed.search === '' ? '' : '?[redacted]';
  if (parsed.origin === 'null') return `${parsed.protocol}[redacted]`;
  return `${parsed.origin}${parsed.pathname}${query}`;
}
