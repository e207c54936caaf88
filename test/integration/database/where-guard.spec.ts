import { UserEntity } from '../../../src/modules/users/user.entity';
import { TestContext } from '../../support/test-app';

describe('TypeORM where-clause guard', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start();
  });
  afterAll(() => ctx.close());

  it('throws on an undefined or null where value instead of matching the first row', async () => {
    await ctx.newUser();
    const users = ctx.dataSource.getRepository(UserEntity);
    const unknownId: string | undefined = undefined;
    await expect(users.findOneBy({ id: unknownId })).rejects.toThrow();
    await expect(users.findOneBy({ id: null as unknown as string })).rejects.toThrow();
    await expect(users.update({ id: unknownId }, { disabled: true })).rejects.toThrow();
    const disabled = await ctx.dataSource.query(`SELECT count(*)::int AS n FROM users WHERE disabled`);
    expect(disabled).toEqual([{ n: 0 }]);
  });
});
