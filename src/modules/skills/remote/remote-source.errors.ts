import { redactUrl } from '../../../common/http-safety/index.js';

/**
 * Why a remote skill source was refused or could not be fetched. The skills routes map each reason to
 * their `skills.*` code; refusals from the guarded fetch itself (a blocked redirect target, a body over
 * the cap, a timeout) stay the `http_safety.*` `DomainError`s it raises.
 */
export type RemoteSourceRefusalReason =
  /** The allowed-hosts list is empty: remote installs are off. */
  | 'remote_disabled'
  /** Neither `owner/repo` nor an absolute URL. */
  | 'invalid_source'
  | 'not_https'
  | 'credentials'
  /** A query or a fragment (`?`, `#`), even an empty one. */
  | 'query'
  /** A port other than 443. */
  | 'port'
  | 'host_not_allowed'
  /** An allowed host, but no archive can be derived from the URL (see `archiveUrlOf`). */
  | 'unsupported_source'
  /** The archive endpoint answered something other than 200 (`details.status`). */
  | 'upstream_status';

/** What a refusal may echo: a URL redacted; other text only when it cannot carry a credential. */
function shownSource(source: string | URL): string {
  if (typeof source !== 'string' || URL.canParse(source)) return redactUrl(source);
  return source.includes('@') || source.includes(':') ? '[redacted]' : source.slice(0, 200);
}

export class RemoteSourceError extends Error {
  constructor(
    readonly reason: RemoteSourceRefusalReason,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'RemoteSourceError';
  }

  /** A refusal naming the source; URLs are shown without credentials, query or fragment. */
  static of(reason: RemoteSourceRefusalReason, source: string | URL, why: string): RemoteSourceError {
    const shown = shownSource(source);
    return new RemoteSourceError(reason, `The skill source ${shown} is refused: ${why}.`, { source: shown });
  }
}
