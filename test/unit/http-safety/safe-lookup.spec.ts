import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { BlockedAddressError } from '../../../src/common/http-safety/http-safety.errors';
import {
  createPlainLookup,
  createSafeLookup,
  type ResolveAll,
} from '../../../src/common/http-safety/safe-lookup';

const v4 = (address: string): LookupAddress => ({ address, family: 4 });
const v6 = (address: string): LookupAddress => ({ address, family: 6 });

/** A resolver stub: no real DNS. Records the options it was called with. */
function stubResolver(answer: LookupAddress[] | NodeJS.ErrnoException) {
  const calls: { hostname: string; all: boolean }[] = [];
  const resolveAll: ResolveAll = (hostname, options, callback) => {
    calls.push({ hostname, all: options.all });
    setImmediate(() => (answer instanceof Error ? callback(answer, []) : callback(null, answer)));
  };
  return { resolveAll, calls };
}

function run(lookup: LookupFunction, all: boolean) {
  return new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
    lookup('target.test', { all }, (err, address, family) => resolve({ err, address, family })),
  );
}

describe('createSafeLookup', () => {
  it('passes a name resolving to public addresses, in the shape net.connect asked for', async () => {
    const answer = [v4('8.8.8.8'), v6('2606:4700:4700::1111')];
    const stub = stubResolver(answer);
    const lookup = createSafeLookup(stub.resolveAll);
    expect(await run(lookup, true)).toEqual({ err: null, address: answer, family: undefined });
    expect(await run(lookup, false)).toEqual({ err: null, address: '8.8.8.8', family: 4 });
    // every address is always fetched, so the one returned is one that was checked
    expect(stub.calls).toEqual([
      { hostname: 'target.test', all: true },
      { hostname: 'target.test', all: true },
    ]);
  });

  it.each([
    ['loopback', [v4('127.0.0.1')]],
    ['metadata', [v4('169.254.169.254')]],
    ['public then private', [v4('8.8.8.8'), v4('10.0.0.1')]],
    ['private then public', [v4('192.168.1.10'), v4('1.1.1.1')]],
    ['public v4 with a ULA v6', [v4('1.1.1.1'), v6('fd00::1')]],
    ['IPv4-mapped loopback', [v6('::ffff:127.0.0.1')]],
    ['IPv6 loopback', [v6('::1')]],
  ])('refuses an answer containing a blocked address (%s)', async (_name, answer) => {
    const lookup = createSafeLookup(stubResolver(answer).resolveAll);
    for (const all of [true, false]) {
      const result = await run(lookup, all);
      expect(result.err).toBeInstanceOf(BlockedAddressError);
      expect(result.err?.message).not.toMatch(/\d+\.\d+\.\d+\.\d+|::/);
    }
  });

  it('reports an empty answer as not found and passes resolver errors through', async () => {
    expect((await run(createSafeLookup(stubResolver([]).resolveAll), true)).err?.code).toBe('ENOTFOUND');
    const failure: NodeJS.ErrnoException = Object.assign(new Error('boom'), { code: 'EAI_AGAIN' });
    expect((await run(createSafeLookup(stubResolver(failure).resolveAll), false)).err).toBe(failure);
  });
});

describe('createPlainLookup (allowlisted targets)', () => {
  it('returns private addresses unchecked', async () => {
    const lookup = createPlainLookup(stubResolver([v4('10.0.0.7')]).resolveAll);
    expect(await run(lookup, false)).toEqual({ err: null, address: '10.0.0.7', family: 4 });
  });
});
