import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkspacePathResolver } from '../../../src/modules/workspace/paths/workspace-path-resolver';
import type { TestContext, TestUser } from '../test-app';
import { execute } from './execute-call';

/** The host folder shown as `/home/gem/user-data` to `user`. */
export function userDataOf(ctx: TestContext, user: TestUser): string {
  return ctx.app.get(WorkspacePathResolver).userDataRoot(user);
}

/** The host folder the `execute` calls of `execute-call` run in (`/home/gem/user-data/workdir/demo`). */
export function workdirOf(ctx: TestContext, user: TestUser): string {
  return join(userDataOf(ctx, user), 'workdir', 'demo');
}

/** After an attack the next command of the user still runs normally. */
export async function expectSandboxStillWorks(ctx: TestContext, user: TestUser): Promise<void> {
  const { isError, body } = await execute(ctx, user, { command: 'echo ok' });
  expect({ isError, exit_code: body.exit_code, stdout: body.stdout }).toEqual({
    isError: false,
    exit_code: 0,
    stdout: 'ok\n',
  });
}

/** Host processes whose command line contains `token` (other than this Jest process). */
export function hostProcessesWith(token: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    if (Number(pid) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(token)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Everything a command printed, to search for what must not be there. */
export const printed = (body: Record<string, any>): string => `${body.stdout ?? ''}${body.stderr ?? ''}`;
