import { isIP } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { Allowlist, defaultPort, type AllowlistInput } from './allowlist.js';
import { isBlockedAddress } from './blocked-addresses.js';
import { BlockedAddressError } from './http-safety.errors.js';
import { createPlainLookup, createSafeLookup, systemResolveAll, type ResolveAll } from './safe-lookup.js';
import type { TestTransport } from './test-transport.js';

export interface SafeDispatcherOptions {
  /** Replaces `dns.lookup` (tests). */
  resolveAll?: ResolveAll;
  connectTimeoutMs?: number;
  /** Tests only: connect some `host:port` targets to a local server instead (see `TestTransport`). */
  testTransport?: TestTransport;
}

/**
 * An undici dispatcher that refuses to open a connection to a blocked address: IP literals are
 * checked here (net.connect does no lookup for them), names in the lookup, on every new connection.
 * Allowlisted `host[:port]` targets use a lookup without the check. Usable on its own with any undici
 * API, though `safeFetch` adds scheme checks, redirect re-validation and timeouts on top.
 */
export function createSafeDispatcher(
  allowlist: AllowlistInput = Allowlist.EMPTY,
  options: SafeDispatcherOptions = {},
): Dispatcher {
  const list = Allowlist.from(allowlist);
  const resolveAll = options.resolveAll ?? systemResolveAll;
  const timeout = options.connectTimeoutMs ?? 10_000;
  const tls = options.testTransport?.ca === undefined ? {} : { ca: options.testTransport.ca };
  const strict = buildConnector({ lookup: createSafeLookup(resolveAll), timeout, ...tls });
  const plain = buildConnector({ lookup: createPlainLookup(resolveAll), timeout, ...tls });
  const mapped = options.testTransport?.hosts ?? {};

  const connect: buildConnector.connector = (target, callback) => {
    const port = target.port ? Number(target.port) : defaultPort(target.protocol);
    const allowed = list.allows(target.hostname, port);
    const to = Object.hasOwn(mapped, `${target.hostname}:${port}`)
      ? mapped[`${target.hostname}:${port}`]
      : null;
    // A mapped name keeps its name for TLS (SNI, certificate check) and connects to the mapped address.
    const dial =
      to === null
        ? target
        : {
            ...target,
            hostname: to.address,
            port: String(to.port),
            servername: target.servername ?? target.hostname,
          };
    if (!allowed && isIP(dial.hostname) !== 0 && isBlockedAddress(dial.hostname)) {
      process.nextTick(callback, new BlockedAddressError(target.hostname), null);
      return;
    }
    (allowed ? plain : strict)(dial, callback);
  };
  return new Agent({ connect });
}
