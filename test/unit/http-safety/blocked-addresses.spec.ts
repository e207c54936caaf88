import { Allowlist } from '../../../src/common/http-safety/allowlist';
import { isBlockedAddress } from '../../../src/common/http-safety/blocked-addresses';
import { checkUrlLiteral } from '../../../src/common/http-safety/check-url';
import { DomainError } from '../../../src/common/errors/domain-error';

const BLOCKED = true;
const ALLOWED = false;

const addresses: [string, boolean][] = [
  // IPv4 loopback, unspecified, RFC 1918
  ['127.0.0.1', BLOCKED],
  ['127.255.255.254', BLOCKED],
  ['0.0.0.0', BLOCKED],
  ['0.1.2.3', BLOCKED],
  ['10.0.0.1', BLOCKED],
  ['10.255.255.255', BLOCKED],
  ['172.16.0.1', BLOCKED],
  ['172.31.255.255', BLOCKED],
  ['192.168.1.1', BLOCKED],
  // link-local, cloud metadata, CGNAT
  ['169.254.169.254', BLOCKED],
  ['169.254.0.1', BLOCKED],
  ['100.64.0.1', BLOCKED],
  ['100.127.255.255', BLOCKED],
  // multicast, broadcast, reserved, benchmarking, documentation, IETF
  ['224.0.0.1', BLOCKED],
  ['239.255.255.250', BLOCKED],
  ['255.255.255.255', BLOCKED],
  ['240.0.0.1', BLOCKED],
  ['198.18.0.1', BLOCKED],
  ['198.19.255.255', BLOCKED],
  ['192.0.2.1', BLOCKED],
  ['198.51.100.7', BLOCKED],
  ['203.0.113.9', BLOCKED],
  ['192.0.0.1', BLOCKED],
  ['192.0.0.170', BLOCKED],
  ['192.88.99.1', BLOCKED],
  // legacy numeric spellings of 127.0.0.1 / 10.0.0.1
  ['2130706433', BLOCKED],
  ['0x7f.1', BLOCKED],
  ['017700000001', BLOCKED],
  ['127.1', BLOCKED],
  ['0x7f000001', BLOCKED],
  ['0177.0.0.1', BLOCKED],
  ['0xa.0.0.1', BLOCKED],
  // IPv6 loopback, unspecified, link-local, unique-local, site-local, multicast
  ['::1', BLOCKED],
  ['[::1]', BLOCKED],
  ['0:0:0:0:0:0:0:1', BLOCKED],
  ['::', BLOCKED],
  ['fe80::1', BLOCKED],
  ['fe80::1%eth0', BLOCKED],
  ['febf::1', BLOCKED],
  ['fc00::1', BLOCKED],
  ['fd12:3456::1', BLOCKED],
  ['fec0::1', BLOCKED],
  ['ff02::1', BLOCKED],
  ['ff05::2', BLOCKED],
  // IPv6 forms embedding a blocked IPv4
  ['::ffff:127.0.0.1', BLOCKED],
  ['::ffff:7f00:1', BLOCKED],
  ['::ffff:10.0.0.1', BLOCKED],
  ['::ffff:169.254.169.254', BLOCKED],
  ['::ffff:0:7f00:1', BLOCKED], // IPv4-translated
  ['::127.0.0.1', BLOCKED], // IPv4-compatible (deprecated)
  ['::8.8.8.8', BLOCKED], // IPv4-compatible: refused whatever it embeds
  ['64:ff9b::127.0.0.1', BLOCKED], // NAT64
  ['64:ff9b::a9fe:a9fe', BLOCKED], // NAT64 of 169.254.169.254
  ['64:ff9b:1::1', BLOCKED], // local-use NAT64
  ['2002:7f00:1::', BLOCKED], // 6to4 of 127.0.0.1
  ['2002:c0a8:101::1', BLOCKED], // 6to4 of 192.168.1.1
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', BLOCKED], // Teredo, client ~80ff:fffe = 127.0.0.1
  ['2001:0:a00:1:8000:63bf:f7f7:f7f7', BLOCKED], // Teredo, server 10.0.0.1
  // other non-global IPv6
  ['2001:db8::1', BLOCKED],
  ['2001:2::1', BLOCKED],
  ['100::1', BLOCKED],
  ['3fff::1', BLOCKED],
  // not addresses: fail closed
  ['localhost', BLOCKED],
  ['example.com', BLOCKED],
  ['', BLOCKED],
  ['1.2.3.4.5', BLOCKED],
  // public
  ['8.8.8.8', ALLOWED],
  ['1.1.1.1', ALLOWED],
  ['100.63.255.255', ALLOWED],
  ['100.128.0.0', ALLOWED],
  ['172.15.255.255', ALLOWED],
  ['172.32.0.1', ALLOWED],
  ['192.0.1.1', ALLOWED],
  ['192.169.0.1', ALLOWED],
  ['198.17.255.255', ALLOWED],
  ['198.20.0.1', ALLOWED],
  ['169.253.255.255', ALLOWED],
  ['169.255.0.1', ALLOWED],
  ['223.255.255.255', ALLOWED],
  ['9.255.255.255', ALLOWED],
  ['11.0.0.1', ALLOWED],
  ['126.255.255.255', ALLOWED],
  ['128.0.0.1', ALLOWED],
  ['2606:4700:4700::1111', ALLOWED],
  ['2001:4860:4860::8888', ALLOWED],
  ['2a00:1450:4001::1', ALLOWED],
  ['::ffff:8.8.8.8', ALLOWED],
  ['64:ff9b::808:808', ALLOWED],
  ['2002:808:808::1', ALLOWED],
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', ALLOWED], // Teredo, server and client public
];

describe('isBlockedAddress', () => {
  it('has a table of at least 60 cases', () => expect(addresses.length).toBeGreaterThanOrEqual(60));

  it.each(addresses)('%s → blocked: %s', (ip, blocked) => {
    expect(isBlockedAddress(ip)).toBe(blocked);
  });
});

const refusal = (
  run: () => unknown,
): { code: string; kind: string; details: Record<string, unknown> } | null => {
  try {
    run();
    return null;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { code: err.code, kind: err.kind, details: err.details ?? {} };
  }
};

const urls: [string, string | null][] = [
  ['http://2130706433/', 'blocked_address'],
  ['http://0x7f.1/', 'blocked_address'],
  ['http://017700000001/', 'blocked_address'],
  ['http://127.1/', 'blocked_address'],
  ['http://0x7f000001:8080/x', 'blocked_address'],
  ['http://[::ffff:127.0.0.1]/', 'blocked_address'],
  ['http://[::ffff:7f00:1]/', 'blocked_address'],
  ['http://[0:0:0:0:0:0:0:1]/', 'blocked_address'],
  ['http://[::]/', 'blocked_address'],
  ['http://0/', 'blocked_address'],
  ['http://169.254.169.254/latest/meta-data/', 'blocked_address'],
  ['https://10.0.0.1:8443/', 'blocked_address'],
  ['http://0x0a.0.0.1/', 'blocked_address'],
  ['http://192.168.0.1./', 'blocked_address'],
  ['http://[fe80::1]/', 'blocked_address'],
  ['http://[fd00::1]:8080/', 'blocked_address'],
  ['http://[64:ff9b::7f00:1]/', 'blocked_address'],
  ['HTTP://127.0.0.1/', 'blocked_address'],
  ['http://user:pw@127.0.0.1/', 'blocked_address'],
  ['file:///etc/passwd', 'scheme_not_allowed'],
  ['ftp://example.com/', 'scheme_not_allowed'],
  ['data:text/plain,hi', 'scheme_not_allowed'],
  ['gopher://example.com/', 'scheme_not_allowed'],
  ['javascript:alert(1)', 'scheme_not_allowed'],
  ['ws://example.com/', 'scheme_not_allowed'],
  ['blob:https://example.com/x', 'scheme_not_allowed'],
  ['mailto:a@example.com', 'scheme_not_allowed'],
  ['not a url', 'invalid_url'],
  ['//example.com/', 'invalid_url'],
  ['http://', 'invalid_url'],
  ['http://example.com/', null],
  ['HTTPS://EXAMPLE.COM/path?q=1', null],
  ['https://8.8.8.8/', null],
  ['http://[2606:4700:4700::1111]/', null],
  ['http://100.63.255.255/', null],
  ['http://user:pass@example.com/', null],
  // a name is not judged here: its addresses are checked at connect time
  ['http://localhost/', null],
  ['http://127.0.0.1.nip.io/', null],
];

describe('checkUrlLiteral', () => {
  it.each(urls)('%s → %s', (url, reason) => {
    const result = refusal(() => checkUrlLiteral(url, []));
    if (reason === null) {
      expect(result).toBeNull();
    } else {
      expect(result).toMatchObject({
        code: 'http_safety.url_not_allowed',
        kind: 'invalid',
        details: { reason },
      });
    }
  });

  it('returns the parsed URL', () => {
    expect(checkUrlLiteral('https://Example.com:443/a').href).toBe('https://example.com/a');
  });

  it('never echoes credentials or the query string', () => {
    const result = refusal(() => checkUrlLiteral('http://alice:s3cret@127.0.0.1:81/x?token=abc#frag', []));
    expect(result?.details).toEqual({ url: 'http://127.0.0.1:81/x?[redacted]', reason: 'blocked_address' });
    let message = '';
    try {
      checkUrlLiteral('http://alice:s3cret@127.0.0.1:81/x?token=abc', []);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('http://127.0.0.1:81/x');
    for (const secret of ['alice', 's3cret', 'token', 'abc']) expect(message).not.toContain(secret);
  });
});

describe('allowlist', () => {
  const cases: [string[], string, boolean][] = [
    [['127.0.0.1'], 'http://127.0.0.1:1234/', true],
    [['127.0.0.1:8080'], 'http://127.0.0.1:8080/', true],
    [['127.0.0.1:8080'], 'http://127.0.0.1:8081/', false],
    [['127.0.0.1:8080'], 'http://127.0.0.1/', false],
    [['127.0.0.1:8080'], 'http://127.0.0.2:8080/', false],
    [['127.0.0.1'], 'http://127.1/', true],
    [['127.1'], 'http://127.0.0.1/', true],
    [['10.0.0.5:80'], 'http://10.0.0.5/', true],
    [['10.0.0.5:80'], 'https://10.0.0.5/', false],
    [['10.0.0.5:443'], 'https://10.0.0.5/', true],
    [['10.0.0.5:443'], 'https://10.0.0.5:443/', true],
    [['[::1]:8080'], 'http://[::1]:8080/', true],
    [['[::1]:8080'], 'http://[0:0::1]:8080/', true],
    [['[::1]:8080'], 'http://[::1]:8081/', false],
    [['[::1]'], 'http://[::1]:9/', true],
    [['[0:0:0:0:0:0:0:1]'], 'http://[::1]/', true],
    [['[::1]'], 'http://127.0.0.1/', false],
    [['169.254.169.254:80'], 'http://169.254.169.254/', true],
    [[], 'http://169.254.169.254/', false],
  ];

  it.each(cases)('%j allows %s: %s', (entries, url, allowed) => {
    const result = refusal(() => checkUrlLiteral(url, entries));
    expect(result === null).toBe(allowed);
    expect(Allowlist.from(entries).allowsUrl(new URL(url))).toBe(allowed);
  });

  it('matches names case-insensitively, with or without a trailing dot, with default ports', () => {
    const list = Allowlist.from(['MCP.Internal', 'docs.corp:8443', 'plain.corp:80']);
    expect(list.allows('mcp.internal', 1234)).toBe(true);
    expect(list.allows('MCP.INTERNAL.', 80)).toBe(true);
    expect(list.allows('mcp.internal.evil.com', 80)).toBe(false);
    expect(list.allows('docs.corp', 8443)).toBe(true);
    expect(list.allows('docs.corp', 443)).toBe(false);
    expect(list.allowsUrl(new URL('http://plain.corp/'))).toBe(true);
    expect(list.allowsUrl(new URL('https://plain.corp/'))).toBe(false);
  });

  it('accepts IPv6 hosts as undici passes them (no brackets)', () => {
    expect(Allowlist.from(['[::1]:8080']).allows('::1', 8080)).toBe(true);
    expect(Allowlist.from(['[fd00::1]']).allows('FD00:0::1', 443)).toBe(true);
  });

  it('rejects malformed entries', () => {
    expect(() => Allowlist.from(['[1:2]'])).toThrow(/Invalid private-network allowlist entry/);
    expect(() => Allowlist.from(['host:99999'])).toThrow(/Invalid private-network allowlist entry/);
    expect(() => Allowlist.from(['a:b:c'])).toThrow(/Invalid private-network allowlist entry/);
  });
});
