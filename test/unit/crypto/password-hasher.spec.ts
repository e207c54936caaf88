import { PasswordHasher } from '../../../src/common/crypto/password-hasher';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher();

  it('verifies the right password and refuses others, with a salted self-describing hash', async () => {
    const a = await hasher.hash('correct horse');
    const b = await hasher.hash('correct horse');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    await expect(hasher.verify('correct horse', a)).resolves.toBe(true);
    await expect(hasher.verify('correct horsE', a)).resolves.toBe(false);
    await expect(hasher.verify('correct horse', 'not-a-hash')).resolves.toBe(false);
  });
});
