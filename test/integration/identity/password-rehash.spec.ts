import { PasswordHasher } from '../../../src/common/crypto/password-hasher';
import { TestContext } from '../../support/test-app';

describe('password hashes made with older parameters', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // The production cost (the test environment lowers it for speed).
    ctx = await TestContext.start({ PASSWORD_HASH_LOG_N: '17' });
  });
  afterAll(() => ctx.close());

  const storedHash = async (id: string): Promise<string> =>
    (await ctx.dataSource.query(`SELECT password_hash FROM users WHERE id = $1`, [id]))[0].password_hash;

  it('are rehashed at N=2^17 on the next successful login, and the new hash still verifies', async () => {
    const user = await ctx.newUser();
    // newUser logged in once already: set the old-parameter hash back to test the login path itself.
    const oldHash = await new PasswordHasher(15).hash(user.password);
    await ctx.dataSource.query(`UPDATE users SET password_hash = $2 WHERE id = $1`, [user.id, oldHash]);

    const wrong = await ctx.http.post('/api/auth/token').send({ username: user.username, password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(await storedHash(user.id)).toBe(oldHash);

    const login = await ctx.http
      .post('/api/auth/token')
      .send({ username: user.username, password: user.password });
    expect(login.status).toBe(200);
    const rehashed = await storedHash(user.id);
    expect(rehashed).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(rehashed).not.toBe(oldHash);
    await expect(new PasswordHasher(17).verify(user.password, rehashed)).resolves.toBe(true);

    // Not a credential change: the token issued at that login keeps working, and so does the password.
    expect(
      (await ctx.http.get('/api/auth/me').set('Authorization', `Bearer ${login.body.access_token}`)).status,
    ).toBe(200);
    const again = await ctx.http
      .post('/api/auth/token')
      .send({ username: user.username, password: user.password });
    expect(again.status).toBe(200);
    expect(await storedHash(user.id)).toBe(rehashed);
  });
});
