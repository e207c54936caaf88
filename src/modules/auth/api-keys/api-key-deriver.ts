import { createHash, createHmac, hkdfSync } from 'node:crypto';

export const API_KEY_PATTERN = /^yxk_[0-9a-f]{48}$/;

export interface DerivedApiKey {
  id: string;
  key: string;
  prefix: string;
  hash: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function toUuid(bytes: Buffer): string {
  const b = Buffer.from(bytes.subarray(0, 16));
  b[6] = (b[6] & 0x0f) | 0x80; // version 8: custom, derived
  b[8] = (b[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * API keys are derived, not stored: `yxk_` + 48 hex of an HMAC over (user, request id) under a key
 * derived from the server secret. A replayed creation re-derives the same id and key; the database
 * keeps only the SHA-256 of the key and a short prefix.
 */
export class ApiKeyDeriver {
  private readonly secrets: Buffer[];

  /** `serverSecrets[0]` derives new keys; older secrets (after a rotation) still re-derive replays. */
  constructor(serverSecrets: readonly string[]) {
    this.secrets = serverSecrets.map((secret) =>
      Buffer.from(hkdfSync('sha256', secret, 'yuxi-tool-platform', 'api-keys/v1', 32)),
    );
  }

  derive(userId: string, requestId: string): DerivedApiKey {
    return this.deriveWith(this.secrets[0], userId, requestId);
  }

  /** The key stored under `keyHash`, re-derived with whichever secret made it; null if none did. */
  rederive(userId: string, requestId: string, keyHash: string): DerivedApiKey | null {
    for (const secret of this.secrets) {
      const derived = this.deriveWith(secret, userId, requestId);
      if (derived.hash === keyHash) return derived;
    }
    return null;
  }

  private deriveWith(secret: Buffer, userId: string, requestId: string): DerivedApiKey {
    const mac = (purpose: string) =>
      createHmac('sha256', secret).update(`${purpose}\u0000${userId}\u0000${requestId}`).digest();
    const key = `yxk_${mac('key').subarray(0, 24).toString('hex')}`;
    return { id: toUuid(mac('id')), key, prefix: key.slice(0, 12), hash: hashApiKey(key) };
  }
}
