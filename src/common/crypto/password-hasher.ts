import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { PasswordCheckGate } from './password-check-gate.js';

const KEY_LENGTH = 32;
/** OWASP's scrypt recommendation: N=2^17, r=8, p=1 (128 MiB per derivation). */
export const DEFAULT_PASSWORD_HASH_LOG_N = 17;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** Bounds for parameters read from a stored hash, so a bad row cannot make us derive with any cost. */
const MAX_LOG_N = 20;
const MAX_R = 32;
const MAX_P = 16;

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // scrypt needs 128·N·r bytes (plus a little); node refuses above `maxmem` (default 32 MiB).
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r + 16 * 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n > 1 && (n & (n - 1)) === 0;
}

interface StoredHash {
  params: ScryptParams;
  salt: Buffer;
  hash: Buffer;
}

function parse(stored: string): StoredHash | null {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined || rest.length > 0) return null;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!isPowerOfTwo(params.N) || params.N > 2 ** MAX_LOG_N) return null;
  if (!Number.isInteger(params.r) || params.r < 1 || params.r > MAX_R) return null;
  if (!Number.isInteger(params.p) || params.p < 1 || params.p > MAX_P) return null;
  return { params, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
}

/**
 * scrypt password hashes in a self-describing format: `scrypt$N$r$p$salt$hash` (base64), so the
 * cost can be raised without invalidating stored hashes: older ones still verify, and `needsRehash`
 * tells the login to store a new hash at the current cost. Every derivation passes the process's
 * `PasswordCheckGate`: checks (`verify`, `burn`) are refused when it is full, new hashes wait.
 */
export class PasswordHasher {
  private readonly params: ScryptParams;
  private readonly dummySalt = randomBytes(16);

  /** `logN`: the cost, N = 2^logN (`PASSWORD_HASH_LOG_N`). */
  constructor(
    logN = DEFAULT_PASSWORD_HASH_LOG_N,
    private readonly gate = new PasswordCheckGate(Number.MAX_SAFE_INTEGER, 0),
  ) {
    this.params = { N: 2 ** logN, r: BLOCK_SIZE, p: PARALLELISM };
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await this.gate.run(() => derive(password, salt, this.params), 'queue');
    const { N, r, p } = this.params;
    return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const parsed = parse(stored);
    if (parsed === null) return false;
    const actual = await this.gate.run(() => derive(password, parsed.salt, parsed.params), 'refuse');
    return actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
  }

  /** Whether a stored hash is weaker than the current parameters (never true for a stronger one). */
  needsRehash(stored: string): boolean {
    const parsed = parse(stored);
    if (parsed === null) return false;
    const { N, r, p } = parsed.params;
    return N < this.params.N || r < this.params.r || p < this.params.p;
  }

  /** Spends the same time as a real verification, so unknown usernames are not revealed by timing. */
  async burn(password: string): Promise<void> {
    await this.gate.run(() => derive(password, this.dummySalt, this.params), 'refuse');
  }
}
