import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { eventually, runRow } from '../../support/runs/run-event-rows';
import { startRuntime } from '../../support/runs/runtime-context';
import { isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import type { TestContext } from '../../support/test-app';

const write = (id: string, name: string) => ({
  id,
  name: 'write_file',
  args: { file_path: `/home/gem/user-data/${name}`, content: name },
});

describe('the authorization re-check of each tool call of one answer (fake model)', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
  });

  afterAll(() => close());

  it('checks the second call again: an account disabled while the first call runs stops the second', async () => {
    const user = await ctx.newUser();
    const threadId = await newThread(ctx, user);
    // The first write waits for the user's quota lock, held here, until the account is disabled.
    const holder = ctx.dataSource.createQueryRunner();
    await holder.connect();
    try {
      await holder.query(`SELECT pg_advisory_lock(hashtext('workspace_quota:' || $1))`, [user.id]);
      fake.script({ toolCalls: [write('call_first', 'first.txt'), write('call_second', 'second.txt')] });
      const run = await startRun(ctx, user, threadId, { input: 'write both' });
      await eventually(
        () =>
          ctx.dataSource.query<unknown[]>(
            `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
          ),
        (rows) => rows.length > 0,
      );
      await ctx.dataSource.query(`UPDATE users SET disabled = true WHERE id = $1`, [user.id]);
      await holder.query(`SELECT pg_advisory_unlock(hashtext('workspace_quota:' || $1))`, [user.id]);

      expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('failed');
      expect((await runRow(ctx, run.run_id)).error).toMatchObject({ code: 'auth.account_disabled' });
      const home = join(ctx.config.dataDir, 'users', user.id, 'user-data');
      // The first call passed its check before the account was disabled; the second was checked again.
      expect(await readFile(join(home, 'first.txt'), 'utf8')).toBe('first.txt');
      await expect(access(join(home, 'second.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
      const results = await ctx.dataSource.query<{ tool_call_id: string }[]>(
        `SELECT tool_call_id FROM messages WHERE run_id = $1 AND role = 'tool' ORDER BY created_at`,
        [run.run_id],
      );
      expect(results.map((row) => row.tool_call_id)).toEqual(['call_first']);
    } finally {
      await holder.release();
    }
  });
});
