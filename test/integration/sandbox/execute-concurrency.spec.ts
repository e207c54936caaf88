import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execute } from '../../support/sandbox/execute-call';
import { expectSandboxStillWorks, printed, workdirOf } from '../../support/sandbox/sandbox-probes';
import { TestContext, type TestUser } from '../../support/test-app';

describe('execute: commands running at the same time', () => {
  let ctx: TestContext;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start();
    alice = await ctx.newUser();
    bob = await ctx.newUser();
    for (const user of [alice, bob]) await mkdir(workdirOf(ctx, user), { recursive: true });
  });
  afterAll(() => ctx.close());

  it("of two users: neither sees the other's files or processes", async () => {
    const tags = new Map([alice, bob].map((user) => [user, `tag-${randomBytes(8).toString('hex')}`]));
    // Each leaves a process with its tag running while both list what they can see.
    const commandOf = (tag: string) =>
      `echo ${tag} > marker-${tag}.txt; sh -c 'sleep 3; :' ${tag}-proc & sleep 1; ` +
      'ls -laR /home/gem/user-data; cat /home/gem/user-data/workdir/demo/marker-*; ps aux; ' +
      'cat /proc/[0-9]*/cmdline | tr "\\0" " "; wait';
    const [forAlice, forBob] = await Promise.all(
      [alice, bob].map((user) => execute(ctx, user, { command: commandOf(tags.get(user)!), timeout_s: 20 })),
    );
    for (const [user, outcome, otherTag] of [
      [alice, forAlice, tags.get(bob)!],
      [bob, forBob, tags.get(alice)!],
    ] as const) {
      const ownTag = tags.get(user)!;
      expect(outcome.isError).toBe(false);
      expect(outcome.body.exit_code).toBe(0);
      // Its own file and process are there: the listing worked.
      expect(outcome.body.stdout).toContain(`marker-${ownTag}.txt`);
      expect(outcome.body.stdout).toContain(`${ownTag}-proc`);
      expect(printed(outcome.body)).not.toContain(otherTag);
      const workdir = workdirOf(ctx, user);
      expect(await readFile(join(workdir, `marker-${ownTag}.txt`), 'utf8')).toBe(`${ownTag}\n`);
      expect(existsSync(join(workdir, `marker-${otherTag}.txt`))).toBe(false);
    }
    await expectSandboxStillWorks(ctx, alice);
    await expectSandboxStillWorks(ctx, bob);
  });

  it('answers sandbox.busy to a user running more than SANDBOX_MAX_PER_USER (2) at once', async () => {
    const outcomes = await Promise.all(
      [1, 2, 3].map(() => execute(ctx, alice, { command: 'sleep 2; echo done' })),
    );
    const busy = outcomes.filter((outcome) => outcome.isError);
    expect(busy).toHaveLength(1);
    expect(busy[0].body.error.code).toBe('sandbox.busy');
    const ran = outcomes.filter((outcome) => !outcome.isError);
    expect(ran.map((outcome) => outcome.body.stdout)).toEqual(['done\n', 'done\n']);
    await expectSandboxStillWorks(ctx, alice);
    await expectSandboxStillWorks(ctx, bob);
  });
});
