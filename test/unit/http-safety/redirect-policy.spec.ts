import { DomainError } from '../../../src/common/errors/domain-error';
import { Allowlist } from '../../../src/common/http-safety/allowlist';
import { redactUrl } from '../../../src/common/http-safety/redact-url';
import { keepCrossOriginHeaders, planRedirect } from '../../../src/common/http-safety/redirect-policy';

const none = Allowlist.from([]);
const from = new URL('https://example.com/a/b?x=1');

function reasonOf(run: () => unknown): unknown {
  try {
    run();
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('http_safety.url_not_allowed');
    return (err as DomainError).details?.reason;
  }
}

describe('planRedirect', () => {
  it.each([
    [301, 'POST', 'GET', false],
    [302, 'POST', 'GET', false],
    [303, 'POST', 'GET', false],
    [303, 'PUT', 'GET', false],
    [303, 'GET', 'GET', true],
    [303, 'HEAD', 'HEAD', true],
    [301, 'PUT', 'PUT', true],
    [302, 'GET', 'GET', true],
    [307, 'POST', 'POST', true],
    [308, 'POST', 'POST', true],
    [308, 'DELETE', 'DELETE', true],
  ])('%i after %s → %s (keeps body: %s)', (status, method, next, keepBody) => {
    expect(planRedirect(from, status, '/c', method, none)).toMatchObject({ method: next, keepBody });
  });

  it('resolves relative locations against the current URL and flags cross-origin hops', () => {
    expect(planRedirect(from, 302, 'c?y=2', 'GET', none)).toMatchObject({
      url: new URL('https://example.com/a/c?y=2'),
      crossOrigin: false,
    });
    expect(planRedirect(from, 302, '//other.example/x', 'GET', none)).toMatchObject({
      url: new URL('https://other.example/x'),
      crossOrigin: true,
    });
    expect(planRedirect(from, 302, 'https://example.com:8443/', 'GET', none).crossOrigin).toBe(true);
  });

  it('refuses a 307/308 that would carry a body to another origin, and only that', () => {
    for (const status of [307, 308])
      expect(reasonOf(() => planRedirect(from, status, 'https://other.example/', 'POST', none, true))).toBe(
        'cross_origin_body_redirect',
      );
    expect(reasonOf(() => planRedirect(from, 307, '/same-origin', 'POST', none, true))).toBeNull();
    expect(reasonOf(() => planRedirect(from, 307, 'https://other.example/', 'GET', none, false))).toBeNull();
    expect(planRedirect(from, 302, 'https://other.example/', 'POST', none, true)).toMatchObject({
      method: 'GET',
      keepBody: false,
    });
  });

  it('keeps only allowlisted headers for a cross-origin hop', () => {
    const headers = new Headers({
      Accept: 'text/html',
      'User-Agent': 'x',
      'Accept-Language': 'de',
      'Accept-Encoding': 'gzip',
      'X-Api-Key': 'k',
      'X-Custom-Token': 't',
      'Proxy-Authorization': 'p',
      Authorization: 'a',
      Cookie: 'c',
      'Content-Type': 'application/json',
    });
    keepCrossOriginHeaders(headers);
    expect([...headers.keys()].sort()).toEqual([
      'accept',
      'accept-encoding',
      'accept-language',
      'user-agent',
    ]);
  });

  it('re-validates the target: scheme and literal address', () => {
    expect(reasonOf(() => planRedirect(from, 302, 'file:///etc/passwd', 'GET', none))).toBe(
      'scheme_not_allowed',
    );
    expect(reasonOf(() => planRedirect(from, 302, 'gopher://example.com/', 'GET', none))).toBe(
      'scheme_not_allowed',
    );
    expect(reasonOf(() => planRedirect(from, 302, 'https://169.254.169.254/', 'GET', none))).toBe(
      'blocked_address',
    );
    expect(reasonOf(() => planRedirect(from, 307, 'https://[::ffff:7f00:1]/', 'GET', none))).toBe(
      'blocked_address',
    );
    expect(reasonOf(() => planRedirect(from, 302, 'https://0x7f.1/', 'GET', none))).toBe('blocked_address');
    expect(reasonOf(() => planRedirect(from, 302, 'http://[::1', 'GET', none))).toBe('invalid_url');
  });

  it('refuses https → http unless the new target is allowlisted; allows http → https', () => {
    expect(reasonOf(() => planRedirect(from, 302, 'http://example.com/', 'GET', none))).toBe(
      'insecure_redirect',
    );
    const internal = Allowlist.from(['intranet.corp']);
    expect(reasonOf(() => planRedirect(from, 302, 'http://intranet.corp/', 'GET', internal))).toBeNull();
    const upgrade = () => planRedirect(new URL('http://a.example/'), 301, 'https://a.example/', 'GET', none);
    expect(reasonOf(upgrade)).toBeNull();
  });
});

describe('redactUrl', () => {
  it.each([
    ['https://u:p@example.com/a?token=1#f', 'https://example.com/a?[redacted]'],
    ['http://example.com:8080/', 'http://example.com:8080/'],
    ['nonsense', '[invalid url]'],
    ['data:text/plain,secret', 'data:[redacted]'],
  ])('%s → %s', (url, expected) => expect(redactUrl(url)).toBe(expected));
});
