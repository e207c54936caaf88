import { RemoteSourceError } from './remote-source.errors.js';

/** The default of the `remote_source_allowed_hosts` setting. */
export const DEFAULT_REMOTE_SOURCE_HOSTS: readonly string[] = ['github.com', 'modelscope.cn'];

// GitHub's own rules: owners up to 39 characters (letters, digits, inner hyphens), repositories up to
// 100 of letters, digits, `.`, `_`, `-` (`.` and `..` excepted, checked below).
const SHORTHAND = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?)\/([A-Za-z0-9._-]{1,100})$/;

/**
 * A remote skill source as a URL, or a `RemoteSourceError`: `owner/repo` is
 * `https://github.com/owner/repo`; otherwise an absolute https URL without credentials, query or
 * fragment, on the default port, whose host is exactly one of `allowedHosts` (no subdomains, no
 * trailing dot; an empty list disables remote sources). Nothing is fetched here.
 */
export function parseRemoteSource(
  source: string,
  allowedHosts: readonly string[] = DEFAULT_REMOTE_SOURCE_HOSTS,
): URL {
  const text = source.trim();
  const refuse = (
    reason: ConstructorParameters<typeof RemoteSourceError>[0],
    why: string,
    shown: string | URL = text,
  ) => RemoteSourceError.of(reason, shown, why);
  if (allowedHosts.length === 0) throw refuse('remote_disabled', 'remote skill sources are disabled');
  const shorthand = SHORTHAND.exec(text);
  if (shorthand !== null && shorthand[2] !== '.' && shorthand[2] !== '..') {
    return checked(new URL(`https://github.com/${shorthand[1]}/${shorthand[2]}`), text, allowedHosts);
  }
  if (!URL.canParse(text) || !/^[a-z][a-z0-9+.-]*:\/\//i.test(text))
    throw refuse('invalid_source', 'expected owner/repo or an https URL');
  return checked(new URL(text), text, allowedHosts);
}

function checked(url: URL, text: string, allowedHosts: readonly string[]): URL {
  const refuse = (reason: ConstructorParameters<typeof RemoteSourceError>[0], why: string) =>
    RemoteSourceError.of(reason, url, why);
  if (url.protocol !== 'https:') throw refuse('not_https', 'only https sources are fetched');
  if (url.username !== '' || url.password !== '')
    throw refuse('credentials', 'a source may not carry credentials');
  // `?` and `#` alone leave `search` and `hash` empty: look at the text too.
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(text))
    throw refuse('query', 'a source may not have a query or a fragment');
  if (url.port !== '') throw refuse('port', 'only the default https port is used');
  const allowed = allowedHosts.map((host) => host.trim().toLowerCase());
  if (!allowed.includes(url.hostname))
    throw refuse('host_not_allowed', `its host is not one of the allowed hosts (${allowed.join(', ')})`);
  return url;
}
