import { DomainError } from '../../../common/errors/index.js';
import { checkUrlLiteral } from '../../../common/http-safety/index.js';
import { WebSearchErrors } from '../web-search.errors.js';

/**
 * What `web_fetch` may hand a vendor. The product never connects to the page itself, so names are not
 * resolved here: the scheme, IP literals (private, loopback, link-local, … with no allowlist: the
 * deployment's intranet exceptions mean nothing to a vendor), `localhost` names and credentials in the
 * URL are refused before any vendor call.
 */
export function checkFetchUrl(raw: string): string {
  let url: URL;
  try {
    url = checkUrlLiteral(raw);
  } catch (error) {
    if (error instanceof DomainError) {
      const reason = (error.details as { reason?: string } | undefined)?.reason ?? 'not allowed';
      throw WebSearchErrors.urlNotAllowed(reason);
    }
    throw error;
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost'))
    throw WebSearchErrors.urlNotAllowed('blocked_address');
  if (url.username !== '' || url.password !== '') throw WebSearchErrors.urlNotAllowed('credentials_in_url');
  url.hash = '';
  return url.toString();
}
