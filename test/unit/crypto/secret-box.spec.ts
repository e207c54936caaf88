import { randomBytes } from 'node:crypto';
import { SecretBox, SecretBoxError } from '../../../src/common/crypto/secret-box';

const key = randomBytes(32).toString('base64');
const row = { table: 'mcp_servers', rowId: 'server-1', column: 'headers' };

describe('SecretBox', () => {
  it('round-trips with a fresh nonce per encryption and a key id prefix', () => {
    const box = new SecretBox(key);
    const a = box.encrypt('tvly-secret-value', row);
    const b = box.encrypt('tvly-secret-value', row);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1:[0-9a-f]{8}:/);
    expect(a).not.toContain('tvly');
    expect(box.decrypt(a, row)).toBe('tvly-secret-value');
  });

  it('refuses a ciphertext moved to another row, table or column', () => {
    const box = new SecretBox(key);
    const sealed = box.encrypt('secret', row);
    for (const other of [
      { ...row, rowId: 'server-2' },
      { ...row, table: 'settings' },
      { ...row, column: 'url' },
    ]) {
      expect(() => box.decrypt(sealed, other)).toThrow(SecretBoxError);
    }
  });

  it('detects tampering with any byte', () => {
    const box = new SecretBox(key);
    const sealed = box.encrypt('secret', row);
    const [version, id, body] = sealed.split(':');
    const raw = Buffer.from(body, 'base64');
    for (const index of [0, 12, raw.length - 1]) {
      const tampered = Buffer.from(raw);
      tampered[index] = tampered[index] ^ 0x01;
      expect(() => box.decrypt(`${version}:${id}:${tampered.toString('base64')}`, row)).toThrow(
        SecretBoxError,
      );
    }
    expect(() => box.decrypt(`${version}:${id}:${raw.subarray(0, 10).toString('base64')}`, row)).toThrow(
      'truncated',
    );
    expect(() => box.decrypt('plain text', row)).toThrow(SecretBoxError);
  });

  it('refuses a ciphertext from another key, and decrypts after a rotation with the old key kept', () => {
    const oldBox = new SecretBox(key);
    const sealed = oldBox.encrypt('secret', row);
    const newKey = randomBytes(32).toString('base64');
    expect(() => new SecretBox(newKey).decrypt(sealed, row)).toThrow('no key with id');

    const rotated = new SecretBox(newKey, [key]);
    expect(rotated.decrypt(sealed, row)).toBe('secret');
    expect(rotated.needsRotation(sealed)).toBe(true);
    expect(rotated.needsRotation(rotated.encrypt('secret', row))).toBe(false);
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => new SecretBox(randomBytes(16).toString('base64'))).toThrow('32 bytes');
  });
});
