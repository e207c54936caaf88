import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** Binds a ciphertext to where it is stored, so it cannot be moved to another row or column. */
export interface SecretContext {
  table: string;
  rowId: string;
  column: string;
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

function aad(context: SecretContext): Buffer {
  return Buffer.from(`${context.table}\u0000${context.rowId}\u0000${context.column}`, 'utf8');
}

function decodeKey(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32) throw new SecretBoxError('a SecretBox key must be exactly 32 bytes');
  return key;
}

/**
 * AES-256-GCM for secrets at rest. Output: `v1:<key id>:<base64(nonce | ciphertext | tag)>`.
 * A fresh random nonce per encryption; the key id lets older keys keep decrypting after a rotation.
 */
export class SecretBox {
  private readonly current: { id: string; key: Buffer };
  private readonly keys = new Map<string, Buffer>();

  constructor(currentKeyBase64: string, previousKeysBase64: readonly string[] = []) {
    const key = decodeKey(currentKeyBase64);
    this.current = { id: keyId(key), key };
    for (const k of [currentKeyBase64, ...previousKeysBase64].map(decodeKey)) this.keys.set(keyId(k), k);
  }

  encrypt(plaintext: string, context: SecretContext): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, nonce);
    cipher.setAAD(aad(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const sealed = Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
    return `${VERSION}:${this.current.id}:${sealed}`;
  }

  decrypt(envelope: string, context: SecretContext): string {
    const [version, id, sealed] = envelope.split(':');
    if (version !== VERSION || id === undefined || sealed === undefined) {
      throw new SecretBoxError('not a SecretBox ciphertext');
    }
    const key = this.keys.get(id);
    if (key === undefined) throw new SecretBoxError(`no key with id ${id}`);
    const raw = Buffer.from(sealed, 'base64');
    if (raw.length < NONCE_BYTES + TAG_BYTES) throw new SecretBoxError('ciphertext is truncated');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE_BYTES));
    decipher.setAAD(aad(context));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretBoxError('ciphertext was tampered with or belongs to another row');
    }
  }

  /** True when the value was sealed with an older key and should be re-encrypted. */
  needsRotation(envelope: string): boolean {
    return envelope.split(':')[1] !== this.current.id;
  }
}
