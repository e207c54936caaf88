import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolEvents, type ToolEvent } from '../../../src/modules/tools/execution/tool-event-sink';
import {
  noRuntimeCheck,
  type DirectToolContext,
  type ToolExecutionContext,
} from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import { ThreadArtifactsRepository } from '../../../src/modules/artifacts/thread-artifacts.repository';
import { WorkspaceService } from '../../../src/modules/workspace/workspace.service';
import { TestContext, type TestUser } from '../../support/test-app';

const WORKDIR = '/home/gem/user-data/workdir/demo/';

describe('present_artifacts through the execution boundary', () => {
  let ctx: TestContext;
  let dataDir: string;
  let user: TestUser;
  const events: { runId: string; event: ToolEvent }[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'yuxi-artifacts-'));
    ctx = await TestContext.start({ DATA_DIR: dataDir });
    ctx.app.get(ToolEvents).connect((context, event) => {
      events.push({ runId: context.runId, event });
      return Promise.resolve();
    });
    user = await ctx.newUser();
    const outputs = join(dataDir, 'users', user.id, 'user-data', 'workdir', 'demo', 'outputs');
    await mkdir(outputs, { recursive: true });
    await writeFile(join(outputs, 'report.md'), '# Report');
    await writeFile(join(outputs, 'chart.png'), 'png');
    await mkdir(join(outputs, '..', 'large_tool_results'), { recursive: true });
    await writeFile(join(outputs, '..', 'large_tool_results', 'call_1.txt'), 'big');
    await mkdir(join(dataDir, 'elsewhere'), { recursive: true });
    await writeFile(join(dataDir, 'elsewhere', 'secret.txt'), 'secret');
    await symlink(join(dataDir, 'elsewhere', 'secret.txt'), join(outputs, 'link.txt'));
  });
  afterAll(() => ctx.close());

  function context(threadId: string, overrides: Partial<DirectToolContext> = {}): ToolExecutionContext {
    return {
      user: { id: user.id, role: user.role, departmentId: user.departmentId },
      runId: randomUUID(),
      threadId,
      leaseToken: 'lease',
      workdir: WORKDIR,
      executableTools: new Set(['present_artifacts']),
      visibleTools: new Set(['present_artifacts']),
      isSubagent: false,
      verifyAuthorization: noRuntimeCheck,
      ...overrides,
    };
  }

  const present = (c: ToolExecutionContext, filepaths: unknown) =>
    ctx.app
      .get(ToolExecutor)
      .execute({ id: `call-${randomUUID()}`, name: 'present_artifacts', args: { filepaths } }, c);
  const rows = (threadId: string) =>
    ctx.dataSource.query(
      `SELECT path, position FROM thread_artifacts WHERE thread_id = $1 ORDER BY position`,
      [threadId],
    );

  it('records trimmed, de-duplicated paths in order on the thread and emits an artifacts event', async () => {
    const threadId = randomUUID();
    const c = context(threadId);
    const result = await present(c, [
      `  ${WORKDIR}outputs/report.md `,
      `${WORKDIR}outputs/chart.png`,
      `${WORKDIR}outputs/report.md`,
    ]);
    expect(result).toMatchObject({ isError: false, outcome: 'ok' });
    expect(result.content).toContain('Presented 2 files');
    expect(await rows(threadId)).toEqual([
      { path: `${WORKDIR}outputs/report.md`, position: 1 },
      { path: `${WORKDIR}outputs/chart.png`, position: 2 },
    ]);
    expect(events.at(-1)).toEqual({
      runId: c.runId,
      event: {
        type: 'artifacts',
        payload: { paths: [`${WORKDIR}outputs/report.md`, `${WORKDIR}outputs/chart.png`] },
      },
    });

    // A later run presenting one old and one new file appends only the new one.
    await writeFile(
      join(dataDir, 'users', user.id, 'user-data', 'workdir', 'demo', 'outputs', 'summary.txt'),
      's',
    );
    await present(context(threadId), [`${WORKDIR}outputs/summary.txt`, `${WORKDIR}outputs/report.md`]);
    expect((await rows(threadId)).map((r: { path: string }) => r.path)).toEqual([
      `${WORKDIR}outputs/report.md`,
      `${WORKDIR}outputs/chart.png`,
      `${WORKDIR}outputs/summary.txt`,
    ]);
  });

  it.each([
    ['a relative path', 'outputs/report.md', 'artifacts.path_refused'],
    ['a missing file', `${WORKDIR}outputs/missing.md`, 'artifacts.path_refused'],
    ['a directory', `${WORKDIR}outputs`, 'artifacts.path_refused'],
    ['an internal large tool result', `${WORKDIR}large_tool_results/call_1.txt`, 'artifacts.path_refused'],
    ['a path outside the workspace', '/etc/passwd', 'workspace.path_not_allowed'],
    ['a traversal', `${WORKDIR}../../../../../../etc/passwd`, 'workspace.path_not_allowed'],
    ['a symlink leading out of the workspace', `${WORKDIR}outputs/link.txt`, 'workspace.path_not_allowed'],
    ['a shared skill that is not readable', '/home/gem/skills/other/SKILL.md', 'workspace.path_not_allowed'],
  ])('refuses %s, and presents nothing of the batch (all or nothing)', async (_, bad, code) => {
    const threadId = randomUUID();
    const before = events.length;
    const result = await present(context(threadId), [`${WORKDIR}outputs/report.md`, bad]);
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content).error.code).toBe(code);
    expect(await rows(threadId)).toEqual([]);
    expect(events.length).toBe(before);
  });

  it('is refused in a subagent run', async () => {
    const threadId = randomUUID();
    const result = await present(context(threadId, { isSubagent: true }), [`${WORKDIR}outputs/report.md`]);
    expect(result).toMatchObject({ outcome: 'refused', errorCode: 'tools.forbidden_for_subagent' });
    expect(await rows(threadId)).toEqual([]);
  });

  it('lists a thread’s artifacts to their owner only, and serves each file to the owner only', async () => {
    const threadId = randomUUID();
    await present(context(threadId), [`${WORKDIR}outputs/report.md`]);
    const artifacts = ctx.app.get(ThreadArtifactsRepository);
    expect((await artifacts.listForThread(threadId, user.id)).map((a) => a.path)).toEqual([
      `${WORKDIR}outputs/report.md`,
    ]);
    const other = await ctx.newUser();
    expect(await artifacts.listForThread(threadId, other.id)).toEqual([]);

    const files = ctx.app.get(WorkspaceService);
    const download = await files.openForDownload(user, `${WORKDIR}outputs/report.md`);
    const chunks: Buffer[] = [];
    for await (const chunk of download.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('# Report');
    await expect(files.openForDownload(other, `${WORKDIR}outputs/report.md`)).rejects.toMatchObject({
      code: 'workspace.not_found',
    });
  });

  it("never reaches another user's files", async () => {
    const other = await ctx.newUser();
    const threadId = randomUUID();
    const otherContext: ToolExecutionContext = {
      ...context(threadId),
      user: { id: other.id, role: other.role, departmentId: other.departmentId },
    };
    const result = await present(otherContext, [`${WORKDIR}outputs/report.md`]);
    expect(JSON.parse(result.content).error.code).toBe('artifacts.path_refused');
    expect(JSON.parse(result.content).error.details.reason).toBe('not_found');
    expect(await rows(threadId)).toEqual([]);
  });
});
