import { isIPv6 } from 'node:net';

interface Entry {
  host: string;
  /** null: any port. */
  port: number | null;
}

/** Canonical host as WHATWG URL spells it (lower-case, IPv6 bracketed and compressed), no trailing dot. */
function canonicalHost(host: string): string {
  const bracketed = isIPv6(host) ? `[${host}]` : host;
  const { hostname } = new URL(`http://${bracketed}/`);
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

export const defaultPort = (protocol: string): number => (protocol === 'https:' ? 443 : 80);

/**
 * `ALLOW_PRIVATE_NETWORK_TARGETS`: targets (`host` = any port, `host:port` = that port only) that may
 * resolve to private addresses. Matching is case-insensitive and uses the URL's default port when
 * it has none.
 */
export class Allowlist {
  static readonly EMPTY = new Allowlist([]);

  private constructor(private readonly entries: readonly Entry[]) {}

  static from(input: AllowlistInput): Allowlist {
    if (input instanceof Allowlist) return input;
    return new Allowlist(input.map(parseEntry));
  }

  /** `host` as in a URL or as undici's connector passes it (IPv6 with or without brackets). */
  allows(host: string, port: number): boolean {
    if (this.entries.length === 0) return false;
    let canonical: string;
    try {
      canonical = canonicalHost(host);
    } catch {
      return false;
    }
    return this.entries.some((e) => e.host === canonical && (e.port === null || e.port === port));
  }

  allowsUrl(url: URL): boolean {
    return this.allows(url.hostname, url.port === '' ? defaultPort(url.protocol) : Number(url.port));
  }
}

export type AllowlistInput = readonly string[] | Allowlist;

function parseEntry(raw: string): Entry {
  const match = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(raw.trim());
  const port = match?.[2] === undefined ? null : Number(match[2]);
  if (match === null || (port !== null && port > 65535)) {
    throw new Error(`Invalid private-network allowlist entry "${raw}": expected host or host:port.`);
  }
  try {
    return { host: canonicalHost(match[1]), port };
  } catch {
    throw new Error(`Invalid private-network allowlist entry "${raw}": the host is not valid.`);
  }
}
