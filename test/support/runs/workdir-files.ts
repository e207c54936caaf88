import { join } from 'node:path';
import type { TestContext } from '../test-app';

/** Where a file of a thread's workdir lies on disk: `<dataDir>/users/<user>/user-data/workdir/t-<thread>/<name>`. */
export function workdirFile(ctx: TestContext, userId: string, threadId: string, name: string): string {
  return join(ctx.config.dataDir, 'users', userId, 'user-data/workdir', `t-${threadId}`, name);
}
