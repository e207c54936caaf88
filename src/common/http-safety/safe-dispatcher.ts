import { isIP } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { Allowlist, defaultPort, type AllowlistInput } from './allowlist.js';
import { isBlockedAddress } from './blocked-addresses.js';
import { BlockedAddressError } from './http-safety.errors.js';
import { createPlainLookup, createSafeLookup, systemResolveAll, type ResolveAll } from './safe-lookup.js';

export interface SafeDispatcherOptions {
  /** Replaces `dns.lookup` (tests). */
  resolveAll?: ResolveAll;
  connectTimeoutMs?: number;
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
  const strict = buildConnector({ lookup: createSafeLookup(resolveAll), timeout });
  const plain = buildConnector({ lookup: createPlainLookup(resolveAll), timeout });

  const connect: buildConnector.connector = (target, callback) => {
    const port = target.port ? Number(target.port) : defaultPort(target.protocol);
    const allowed = list.allows(target.hostname, port);
    if (!allowed && isIP(target.hostname) !== 0 && isBlockedAddress(target.hostname)) {
      process.nextTick(callback, new BlockedAddressError(target.hostname), null);
      return;
    }
    (allowed ? plain : strict)(target, callback);
  };
  return new Agent({ connect });
}
