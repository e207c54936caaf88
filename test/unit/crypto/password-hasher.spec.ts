import { PasswordHasher } from '../../../src/common/crypto/password-hasher';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher(14);

  it('verifies the right password and refuses others, with a salted self-describing hash', async () => {
    const a = await hasher.hash('correct horse');
    const b = await hasher.hash('correct horse');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b);
    await expect(hasher.verify('correct horse', a)).resolves.toBe(true);
    await expect(hasher.verify('correct horsE', a)).resolves.toBe(false);
    await expect(hasher.verify('correct horse', 'not-a-hash')).resolves.toBe(false);
  });

  it('hashes at the OWASP cost N=2^17, r=8, p=1 by default', async () => {
    const hash = await new PasswordHasher().hash('correct horse');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    await expect(new PasswordHasher().verify('correct horse', hash)).resolves.toBe(true);
  });

  it('asks for a rehash only of hashes weaker than its own parameters', async () => {
    const weaker = await hasher.hash('pw');
    const stronger = new PasswordHasher(15);
    expect(stronger.needsRehash(weaker)).toBe(true);
    expect(stronger.needsRehash(await stronger.hash('pw'))).toBe(false);
    // Lowering the configured cost never downgrades stored hashes.
    expect(hasher.needsRehash(await stronger.hash('pw'))).toBe(false);
    expect(hasher.needsRehash(weaker.replace('$8$1$', '$4$1$'))).toBe(true);
  });

  it('keeps verifying hashes made with older parameters', async () => {
    const old = await hasher.hash('pw');
    await expect(new PasswordHasher(15).verify('pw', old)).resolves.toBe(true);
  });

  it('refuses a stored hash whose parameters are out of bounds instead of deriving with them', async () => {
    const hash = await hasher.hash('pw');
    for (const bad of [
      hash.replace('$16384$', '$2147483648$'),
      hash.replace('$16384$', '$12345$'),
      hash.replace('$8$1$', '$1000$1$'),
      hash.replace('$8$1$', '$8$0$'),
    ])
      await expect(hasher.verify('pw', bad)).resolves.toBe(false);
  });
});
