/**
 * A test-only way to reach a local server under a public name (`github.com:443` served by a server the
 * test started on 127.0.0.1), without touching DNS or the environment. Production never provides one:
 * it reaches `SafeHttpClient` only through the optional `SAFE_HTTP_TEST_TRANSPORT` provider, which a
 * test module supplies. The mapped connection is checked like any other: the name and port against
 * `ALLOW_PRIVATE_NETWORK_TARGETS`, the mapped address against the blocked ranges, and TLS still
 * verifies the certificate for the name (against `ca`).
 */
export interface TestTransport {
  /** `host:port` as the URL names it (default port included) → where to connect instead. */
  hosts: Readonly<Record<string, { address: string; port: number }>>;
  /** Extra CA certificates (PEM) trusted for TLS, for a local https server. */
  ca?: string;
}

export const SAFE_HTTP_TEST_TRANSPORT = Symbol('SAFE_HTTP_TEST_TRANSPORT');
