import {
  readBodyCapped,
  type SafeFetchResult,
  type SafeRequestInit,
} from '../../../common/http-safety/index.js';
import { RemoteSourceError } from './remote-source.errors.js';

/** `SafeHttpClient.fetch`: every hop's address checked at connect time, redirects re-validated. */
export type GuardedFetch = (url: URL, init?: SafeRequestInit) => Promise<SafeFetchResult>;

export interface FetchRemoteArchiveOptions {
  safeFetch: GuardedFetch;
  /** Bytes read from the body at most (`http_safety.response_too_large` past it). */
  maxBytes: number;
  signal?: AbortSignal;
  /** The whole download, redirects and body included. Default 60 s. */
  timeoutMs?: number;
}

const GITHUB_REPO = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/;

/**
 * Where a parsed source's ZIP is fetched from:
 * - `https://github.com/<owner>/<repo>[.git]` → `https://github.com/<owner>/<repo>/archive/HEAD.zip`,
 *   GitHub's documented archive link for the default branch; it answers with a redirect to
 *   `codeload.github.com`, which the guarded fetch re-checks like any hop. (Asking codeload directly
 *   saves that hop but relies on an undocumented host, and contacts a host the allowlist does not
 *   name.)
 * - any URL whose path ends in `.zip` on an allowed host (a release asset, a ModelScope file link) →
 *   itself.
 * Anything else (a GitHub sub-page, a ModelScope repository page, which offers git only) is
 * `unsupported_source`.
 */
export function archiveUrlOf(source: URL): URL {
  if (source.pathname.toLowerCase().endsWith('.zip')) return source;
  const repo = source.hostname === 'github.com' ? GITHUB_REPO.exec(source.pathname) : null;
  if (repo === null)
    throw RemoteSourceError.of(
      'unsupported_source',
      source,
      'expected a GitHub repository (owner/repo) or a link to a .zip archive',
    );
  return new URL(`https://github.com/${repo[1]}/${repo[2]}/archive/HEAD.zip`);
}

/**
 * The ZIP behind a source that `parseRemoteSource` accepted, fetched through the guarded fetch with no
 * credentials and nothing from the environment (only `accept` is sent), the body capped at `maxBytes`.
 * A non-200 answer is `upstream_status`; network refusals stay `http_safety.*` errors. The bytes are
 * then read like an upload (`readSkillArchive`).
 */
export async function fetchRemoteArchive(source: URL, options: FetchRemoteArchiveOptions): Promise<Buffer> {
  const archive = archiveUrlOf(source);
  const { response } = await options.safeFetch(archive, {
    method: 'GET',
    headers: { accept: 'application/zip, application/octet-stream' },
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? 60_000,
  });
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw new RemoteSourceError(
      'upstream_status',
      `Fetching the skill archive of ${archive.origin}${archive.pathname} answered ${response.status}.`,
      { source: `${archive.origin}${archive.pathname}`, status: response.status },
    );
  }
  return readBodyCapped(response, options.maxBytes);
}
