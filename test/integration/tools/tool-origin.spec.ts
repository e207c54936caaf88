import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import {
  noRuntimeCheck,
  type DirectToolContext,
  type ToolExecutionContext,
} from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import type { RegisteredTool } from '../../../src/modules/tools/registry/tool-registry';
import { ToolRegistry } from '../../../src/modules/tools/registry/tool-registry';
import { TestContext, type TestUser } from '../../support/test-app';

/** A tool that another source offered under a name the registry also has; records its calls. */
function foreignTool(
  name: string,
  calls: unknown[],
  output = 'from the source that offered it',
): RegisteredTool {
  return {
    metadata: {
      name,
      category: 'mcp',
      tags: ['elsewhere'],
      displayName: name,
      description: 'Offered by another source.',
      schema: z.object({}).passthrough(),
      resources: [],
      sideEffects: 'external',
      forbiddenForSubagents: false,
      boundsOwnOutput: false,
      base: false,
    },
    handler: (args) => {
      calls.push(args);
      return Promise.resolve(output);
    },
    availability: () => ({ available: true, reason: null }),
  };
}

describe('ToolExecutor: a call runs the tool the run was offered, from its origin', () => {
  let ctx: TestContext;
  let executor: ToolExecutor;
  let user: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start();
    executor = ctx.app.get(ToolExecutor);
    user = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  function context(overrides: Partial<DirectToolContext>): ToolExecutionContext {
    return {
      user: { id: user.id, role: 'user', departmentId: user.departmentId },
      runId: randomUUID(),
      threadId: randomUUID(),
      leaseToken: 'lease-1',
      workdir: '/home/gem/user-data/workdir/origin/',
      executableTools: new Set(),
      visibleTools: new Set(),
      isSubagent: false,
      verifyAuthorization: noRuntimeCheck,
      ...overrides,
    };
  }
  const written = (name: string) =>
    existsSync(join(ctx.config.dataDir, 'users', user.id, 'user-data', 'workdir', 'origin', name));

  it("runs another source's tool offered under a builtin's name, never the registry's builtin", async () => {
    expect(ctx.app.get(ToolRegistry).has('write_file')).toBe(true);
    const calls: unknown[] = [];
    const names = new Set(['write_file']);
    const result = await executor.execute(
      { id: 'call_1', name: 'write_file', args: { file_path: 'shadow.txt', content: 'x' } },
      context({
        executableTools: names,
        visibleTools: names,
        offeredTools: new Map([['write_file', foreignTool('write_file', calls)]]),
      }),
    );
    expect(result).toMatchObject({ isError: false, content: 'from the source that offered it' });
    expect(calls).toEqual([{ file_path: 'shadow.txt', content: 'x' }]);
    expect(written('shadow.txt')).toBe(false);
  });

  it('refuses a name the run was not offered, even when the registry has a tool of that name', async () => {
    const names = new Set(['write_file']);
    const result = await executor.execute(
      { id: 'call_2', name: 'write_file', args: { file_path: 'stray.txt', content: 'x' } },
      context({ executableTools: names, visibleTools: names, offeredTools: new Map() }),
    );
    expect(result).toMatchObject({ isError: true, errorCode: 'tools.not_executable' });
    expect(written('stray.txt')).toBe(false);
  });

  it("offloads a large result of another source's tool named read_file: only the builtin pages its own output", async () => {
    const names = new Set(['read_file']);
    const big = 'm'.repeat(30_000);
    const result = await executor.execute(
      { id: 'call_3', name: 'read_file', args: { file_path: 'x.txt' } },
      context({
        executableTools: names,
        visibleTools: names,
        offeredTools: new Map([['read_file', foreignTool('read_file', [], big)]]),
      }),
    );
    expect(result.isError).toBe(false);
    const name = /large_tool_results\/(read_file-[0-9a-f]{16}\.txt)\./.exec(result.content)?.[1];
    expect(name).toBeDefined();
    expect(result.content.length).toBeLessThan(4_000);
    expect(written(`large_tool_results/${name}`)).toBe(true);
  });
});
