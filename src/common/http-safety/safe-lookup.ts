import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isBlockedAddress } from './blocked-addresses.js';
import { BlockedAddressError } from './http-safety.errors.js';

/** The resolver a lookup wraps: `dns.lookup` with `all: true`, or a stub in tests. */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export const systemResolveAll: ResolveAll = (hostname, options, callback) =>
  dnsLookup(hostname, options, callback);

function createLookup(resolveAll: ResolveAll, checkAddresses: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      if (addresses.length === 0) {
        const notFound: NodeJS.ErrnoException = new Error(`${hostname} did not resolve to any address.`);
        notFound.code = 'ENOTFOUND';
        return callback(notFound, '', 0);
      }
      if (checkAddresses && addresses.some((a) => isBlockedAddress(a.address))) {
        return callback(new BlockedAddressError(hostname), '', 0);
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * A `net.connect` lookup that resolves every address of the name and refuses the connection when any
 * of them is blocked (a DNS answer mixing public and private addresses is refused as a whole). The
 * socket connects to exactly the addresses checked here, so a rebinding DNS server gains nothing.
 */
export const createSafeLookup = (resolveAll: ResolveAll = systemResolveAll): LookupFunction =>
  createLookup(resolveAll, true);

/** The same lookup without the address check, for allowlisted targets. */
export const createPlainLookup = (resolveAll: ResolveAll = systemResolveAll): LookupFunction =>
  createLookup(resolveAll, false);
