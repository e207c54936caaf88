import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  noRuntimeCheck,
  type ToolExecutionContext,
} from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolCallAuditWriter } from '../../../src/modules/tools/execution/audit/tool-call-audit-writer';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import { ToolRegistry } from '../../../src/modules/tools/registry/tool-registry';
import { TestContext, type TestUser } from '../../support/test-app';
import { ProbeTools, ProbeToolsModule } from './probe-tools';

const ECHO = 'probe_echo';

/**
 * A run's tool calls are re-checked by the runtime and resolved from the run's offered tools. Both are
 * required by type on a run's context (the `@ts-expect-error` lines below fail `npm run typecheck` the
 * day a context may omit them), and the executor refuses, before any stage, a context that reached it
 * around the type.
 */
describe('ToolExecutor: a run context carries its authorization check and offered tools', () => {
  let ctx: TestContext;
  let executor: ToolExecutor;
  let probe: ProbeTools;
  let user: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start({}, [ProbeToolsModule]);
    executor = ctx.app.get(ToolExecutor);
    probe = ctx.app.get(ProbeTools);
    user = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  const surroundings = () => ({
    user: { id: user.id, role: user.role, departmentId: user.departmentId },
    runId: randomUUID(),
    threadId: randomUUID(),
    leaseToken: 'lease-1',
    workdir: '/home/gem/user-data/workdir/demo/',
    executableTools: new Set([ECHO]),
    visibleTools: new Set([ECHO]),
    isSubagent: false,
  });
  const offered = () => new Map([[ECHO, ctx.app.get(ToolRegistry).get(ECHO)!]]);

  it('does not compile a run context without its check or its offered tools', () => {
    // @ts-expect-error a run's context must carry the runtime's authorization check
    const withoutCheck: ToolExecutionContext = { ...surroundings(), offeredTools: offered() };
    const undefinedCheck: ToolExecutionContext = {
      ...surroundings(),
      offeredTools: offered(),
      // @ts-expect-error an undefined check is not a way to skip it
      verifyAuthorization: undefined,
    };
    // @ts-expect-error a run's context must carry the tools offered to the run
    const withoutOffered: ToolExecutionContext = {
      ...surroundings(),
      verifyAuthorization: () => Promise.resolve(),
    };
    const direct: ToolExecutionContext = { ...surroundings(), verifyAuthorization: noRuntimeCheck };
    expect([withoutCheck, undefinedCheck, withoutOffered, direct]).toHaveLength(4);
  });

  const auditRows = async (runId: string) => {
    await ctx.app.get(ToolCallAuditWriter).flush();
    return ctx.dataSource.query(`SELECT tool_call_id FROM tool_calls WHERE run_id = $1`, [runId]);
  };

  // Each reaches the executor around the type, as a cast or plain JavaScript would.
  it.each<[string, () => object]>([
    ['its authorization check', () => ({ ...surroundings(), offeredTools: offered() })],
    ['its offered tools', () => ({ ...surroundings(), verifyAuthorization: () => Promise.resolve() })],
    ['both', () => ({ ...surroundings(), verifyAuthorization: undefined, offeredTools: undefined })],
  ])('refuses loudly, before any stage, a run context that lacks %s', async (_, build) => {
    const context = build() as ToolExecutionContext;
    const before = probe.calls[ECHO] ?? 0;
    await expect(executor.execute({ id: 'c-1', name: ECHO, args: { text: 'x' } }, context)).rejects.toThrow(
      `tool call of run ${context.runId} refused: its context lacks`,
    );
    expect(probe.calls[ECHO] ?? 0).toBe(before);
    expect(await auditRows(context.runId)).toEqual([]);
  });

  it('runs the same call once the run context is whole, checking the run first', async () => {
    const checked: string[] = [];
    const context: ToolExecutionContext = {
      ...surroundings(),
      offeredTools: offered(),
      verifyAuthorization: () => {
        checked.push('verified');
        return Promise.resolve();
      },
    };
    const result = await executor.execute({ id: 'c-2', name: ECHO, args: { text: 'x' } }, context);
    expect(result).toMatchObject({ outcome: 'ok', content: JSON.stringify({ echoed: 'x' }) });
    expect(checked).toEqual(['verified']);
    expect(await auditRows(context.runId)).toEqual([{ tool_call_id: 'c-2' }]);
  });

  it('leaves the no-runtime marker to the tools module itself: no other source file names it', () => {
    const src = join(__dirname, '../../../src');
    const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    const naming = files
      .filter((file) => readFileSync(join(src, file), 'utf8').includes('noRuntimeCheck'))
      .map((file) => relative(src, join(src, file)));
    expect(naming.sort()).toEqual([
      'modules/tools/execution/guards/run-authorization.guard.ts',
      'modules/tools/execution/tool-execution-context.ts',
      'modules/tools/execution/tool-executor.ts',
    ]);
  });
});
