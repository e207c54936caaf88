import { TestContext, type TestUser } from '../../support/test-app';

describe('the user directory (names to share with)', () => {
  let ctx: TestContext;
  let user: TestUser;
  const auth = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const find = (query: string) => ctx.http.get(`/api/users/directory?${query}`).set(auth(user));

  beforeAll(async () => {
    ctx = await TestContext.start();
    user = await ctx.newUser();
    for (const username of ['dir_alice', 'dir_albert', 'Dir_Bob', 'dir_a%b', 'dir_gone']) {
      await ctx.newUser({ username });
    }
    await ctx.dataSource.query(`UPDATE users SET disabled = true WHERE username = 'dir_gone'`);
  });
  afterAll(() => ctx.close());

  const names = (res: { body: { items: { username: string }[] } }) => res.body.items.map((u) => u.username);

  it('finds enabled accounts by a case-insensitive prefix, ordered by name, id and name only', async () => {
    const res = await find('q=DIR_');
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['dir_a%b', 'dir_albert', 'dir_alice', 'Dir_Bob']);
    expect(Object.keys(res.body.items[0]).sort()).toEqual(['id', 'username']);
    expect(names(await find('q=dir_al'))).toEqual(['dir_albert', 'dir_alice']);
  });

  it('treats % and _ in the prefix as themselves, not as wildcards', async () => {
    expect(names(await find(`q=${encodeURIComponent('dir_a%')}`))).toEqual(['dir_a%b']);
    expect(names(await find(`q=${encodeURIComponent('%')}`))).toEqual([]);
    expect(names(await find('q=dir_a_b'))).toEqual([]);
  });

  it('names the given ids (a share config’s users), never a disabled account', async () => {
    const [alice, gone] = await ctx.dataSource.query<{ id: string }[]>(
      `SELECT id FROM users WHERE username IN ('dir_alice', 'dir_gone') ORDER BY username`,
    );
    const res = await find(`ids=${alice.id},${gone.id}`);
    expect(res.body.items).toEqual([{ id: alice.id, username: 'dir_alice' }]);
  });

  it('answers at most 20 by prefix', async () => {
    for (let i = 0; i < 22; i += 1) await ctx.newUser({ username: `many_${String(i).padStart(2, '0')}` });
    expect((await find('q=many_')).body.items).toHaveLength(20);
  });

  it('refuses bad queries with 400 and strangers with 401', async () => {
    for (const query of ['q=', `q=${'x'.repeat(101)}`, 'q=a&q=b', 'ids=not-a-uuid', 'ids=', 'extra=1']) {
      const res = await find(query);
      expect({ query, status: res.status, code: res.body.code }).toEqual({
        query,
        status: 400,
        code: 'common.validation_failed',
      });
    }
    const many = Array.from({ length: 101 }, () => '00000000-0000-4000-8000-000000000000').join(',');
    expect((await find(`ids=${many}`)).status).toBe(400);
    expect((await ctx.http.get('/api/users/directory?q=a')).status).toBe(401);
  });
});
