import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createHttpApp } from '../../../src/bootstrap/create-http-app';
import { OcrModule } from '../../../src/modules/ocr/ocr.module';
import {
  noRuntimeCheck,
  type ToolExecutionContext,
} from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import { LargeToolResults } from '../../../src/modules/workspace/large-tool-results';
import { WorkspaceQuota } from '../../../src/modules/workspace/quota/workspace-quota';
import { makePdf } from '../../support/fixtures/make-pdf';
import { TestContext, type TestUser } from '../../support/test-app';
import { invocationFor, outcomeOf, WORKDIR } from './tool-invocation';

const QUOTA = 64 * 1024;
const KB = 1024;
const TOOLS = ['write_file', 'edit_file', 'ocr_parse_file'];

describe('WORKSPACE_QUOTA_BYTES on every write path', () => {
  let ctx: TestContext;
  /** A second application on the same database and DATA_DIR: another process (an API next to a worker). */
  let other: NestExpressApplication;
  let dataDir: string;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const workdirOf = (user: TestUser) => join(dataDir, 'users', user.id, 'user-data', 'workdir', 'demo');

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'workspace-quota-'));
    ctx = await TestContext.start({ DATA_DIR: dataDir, WORKSPACE_QUOTA_BYTES: String(QUOTA) }, [OcrModule]);
    other = await createHttpApp(ctx.config, { extraModules: [OcrModule] });
    await other.init();
  });
  afterAll(async () => {
    await other.close();
    await ctx.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  function context(user: TestUser): ToolExecutionContext {
    return {
      user: { id: user.id, role: user.role, departmentId: user.departmentId },
      runId: randomUUID(),
      threadId: randomUUID(),
      leaseToken: 'lease-1',
      workdir: WORKDIR,
      executableTools: new Set(TOOLS),
      visibleTools: new Set(TOOLS),
      isSubagent: false,
      verifyAuthorization: noRuntimeCheck,
    };
  }

  /** A tool call as the model makes it; the parsed content it gets back. */
  async function call(user: TestUser, name: string, args: Record<string, unknown>, app = ctx.app) {
    const result = await app
      .get(ToolExecutor)
      .execute({ id: `call-${randomUUID()}`, name, args }, context(user));
    return { isError: result.isError, body: JSON.parse(result.content) as Record<string, any> };
  }

  const write = (user: TestUser, path: string, bytes: number, app = ctx.app) =>
    call(user, 'write_file', { file_path: path, content: 'x'.repeat(bytes) }, app);

  const usageRow = async (user: TestUser) =>
    (
      await ctx.dataSource.query(`SELECT used_bytes FROM workspace_usage WHERE user_id = $1`, [user.id])
    )[0] as { used_bytes: string } | undefined;

  it('refuses a write_file past the quota with the figures and writes nothing; an overwrite counts its delta', async () => {
    const user = await ctx.newUser();
    expect((await write(user, 'filler.txt', 60 * KB)).isError).toBe(false);
    const refused = await write(user, 'more.txt', 5 * KB);
    expect(refused.isError).toBe(true);
    expect(refused.body.error).toEqual({
      code: 'workspace.quota_exceeded',
      message: expect.stringContaining('quota'),
      details: { quota_bytes: QUOTA, used_bytes: 60 * KB, requested_bytes: 5 * KB },
    });
    await expect(stat(join(workdirOf(user), 'more.txt'))).rejects.toMatchObject({ code: 'ENOENT' });

    // 60 KiB → 63 KiB grows by 3 KiB only, which fits; a second 60 KiB file would not.
    expect((await write(user, 'filler.txt', 63 * KB)).isError).toBe(false);
    expect((await stat(join(workdirOf(user), 'filler.txt'))).size).toBe(63 * KB);
    expect(await usageRow(user)).toEqual({ used_bytes: String(63 * KB) });
    // Shrinking always passes and frees room at once.
    expect((await write(user, 'filler.txt', 10 * KB)).isError).toBe(false);
    expect((await write(user, 'more.txt', 50 * KB)).isError).toBe(false);
    expect(await usageRow(user)).toEqual({ used_bytes: String(60 * KB) });
  });

  it('refuses an edit_file that grows the file past the quota and leaves the file as it was', async () => {
    const user = await ctx.newUser();
    expect((await write(user, 'filler.txt', 60 * KB)).isError).toBe(false);
    await call(user, 'write_file', { file_path: 'notes.txt', content: 'alpha TOKEN omega' });
    const grown = await call(user, 'edit_file', {
      file_path: 'notes.txt',
      old_string: 'TOKEN',
      new_string: 'y'.repeat(5 * KB),
    });
    expect(grown.body.error).toMatchObject({
      code: 'workspace.quota_exceeded',
      details: { requested_bytes: 5 * KB - 'TOKEN'.length },
    });
    expect(await readFile(join(workdirOf(user), 'notes.txt'), 'utf8')).toBe('alpha TOKEN omega');
    const shrunk = await call(user, 'edit_file', {
      file_path: 'notes.txt',
      old_string: ' TOKEN',
      new_string: '',
    });
    expect(shrunk.isError).toBe(false);
    expect(await readFile(join(workdirOf(user), 'notes.txt'), 'utf8')).toBe('alpha omega');
  });

  it('refuses an upload past the quota with 413, leaving neither the file nor a temp file', async () => {
    const user = await ctx.newUser();
    const thread = (await ctx.http.post('/api/threads').set(as(user)).send({ agent_slug: 'default-chatbot' }))
      .body as { id: string; workdir: string };
    const threadDir = join(dataDir, 'users', user.id, 'user-data', 'workdir', `t-${thread.id}`);
    expect((await write(user, `${thread.workdir}filler.txt`, 62 * KB)).isError).toBe(false);

    const refused = await ctx.http
      .post(`/api/threads/${thread.id}/files`)
      .set(as(user))
      .attach('file', Buffer.alloc(4 * KB, 1), 'big.bin');
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({
      code: 'workspace.quota_exceeded',
      details: { quota_bytes: QUOTA, used_bytes: 62 * KB, requested_bytes: 4 * KB },
    });
    // Refused while it arrived: the upload never reached the workdir (not even to create outputs/).
    expect((await readdir(threadDir)).sort()).toEqual(['filler.txt']);
    expect(await readdir(join(dataDir, 'tmp', 'uploads'))).toEqual([]);

    const fits = await ctx.http
      .post(`/api/threads/${thread.id}/files`)
      .set(as(user))
      .attach('file', Buffer.alloc(KB, 1), 'small.bin');
    expect(fits.status).toBe(201);
    expect(await usageRow(user)).toEqual({ used_bytes: String(63 * KB) });
  });

  it('refuses to write an OCR result past the quota and leaves outputs/ocr empty', async () => {
    const user = await ctx.newUser();
    await mkdir(workdirOf(user), { recursive: true });
    const pdf = await makePdf([['Quarterly report alpha']]);
    await writeFile(join(workdirOf(user), 'report.pdf'), pdf);
    // The source counts too: the first measurement walks the workspace and finds it.
    expect((await write(user, 'filler.txt', QUOTA - pdf.length - 10)).isError).toBe(false);
    const refused = await call(user, 'ocr_parse_file', { file_path: 'report.pdf' });
    expect(refused.body.error).toMatchObject({
      code: 'workspace.quota_exceeded',
      details: { quota_bytes: QUOTA, used_bytes: QUOTA - 10 },
    });
    expect(await readdir(join(workdirOf(user), 'outputs', 'ocr')).catch(() => [])).toEqual([]);
  });

  const offload = (user: TestUser, content: string, toolName = 'big_tool') =>
    ctx.app.get(LargeToolResults).offload({ content, toolName, invocation: invocationFor(user) });
  const savedResults = (user: TestUser) =>
    readdir(join(workdirOf(user), 'large_tool_results')).catch(() => [] as string[]);

  it('refuses to save a large tool result past the quota with an error saying the result is lost', async () => {
    const user = await ctx.newUser();
    expect((await write(user, 'filler.txt', 40 * KB)).isError).toBe(false);
    const refused = await offload(user, 'z'.repeat(30 * KB)).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 'workspace.quota_exceeded',
      message: expect.stringContaining('The tool ran, but its result (30720 characters)'),
      details: { quota_bytes: QUOTA, used_bytes: 40 * KB, requested_bytes: 30 * KB, result_chars: 30 * KB },
    });
    expect(await savedResults(user)).toEqual([]);
    // Room enough for a smaller one.
    expect(await offload(user, 'z'.repeat(21 * KB))).toContain('large_tool_results/big_tool-');
    expect(await usageRow(user)).toEqual({ used_bytes: String(61 * KB) });
  });

  it('saves the same text of a tool once and charges the quota once, even when the workspace is full', async () => {
    const user = await ctx.newUser();
    const text = 'q'.repeat(30 * KB);
    const first = await offload(user, text);
    const [name] = await savedResults(user);
    const written = await stat(join(workdirOf(user), 'large_tool_results', name));
    expect(await usageRow(user)).toEqual({ used_bytes: String(30 * KB) });
    // Two more at once (another call, another process): the same file, nothing written or charged.
    const again = await Promise.all([offload(user, text), offload(user, text)]);
    expect(again).toEqual([first, first]);
    expect(await savedResults(user)).toEqual([name]);
    expect((await stat(join(workdirOf(user), 'large_tool_results', name))).mtimeMs).toBe(written.mtimeMs);
    expect(await usageRow(user)).toEqual({ used_bytes: String(30 * KB) });
    expect((await ctx.app.get(WorkspaceQuota).current(user, true)).usedBytes).toBe(30 * KB);
    // Full now: a repeat still costs nothing, a new text is refused.
    expect((await write(user, 'filler.txt', 30 * KB)).isError).toBe(false);
    expect(await offload(user, text)).toBe(first);
    expect(await outcomeOf(offload(user, text, 'other_tool'))).toEqual({ code: 'workspace.quota_exceeded' });
    expect(await usageRow(user)).toEqual({ used_bytes: String(60 * KB) });
  });

  it('rewrites a saved result whose file no longer holds the text, charging only the difference', async () => {
    const user = await ctx.newUser();
    const text = 'r'.repeat(25 * KB);
    await offload(user, text);
    const [name] = await savedResults(user);
    const file = join(workdirOf(user), 'large_tool_results', name);
    await writeFile(file, text.slice(0, 5 * KB)); // a write cut short
    expect((await ctx.app.get(WorkspaceQuota).current(user, true)).usedBytes).toBe(5 * KB);
    await offload(user, text);
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(await usageRow(user)).toEqual({ used_bytes: String(25 * KB) });
  });

  it('lets exactly as many parallel writes from two processes through as fit', async () => {
    const user = await ctx.newUser();
    const writes = Array.from({ length: 10 }, (_, i) =>
      write(user, `part-${i}.txt`, 10 * KB, i % 2 === 0 ? ctx.app : other),
    );
    const results = await Promise.all(writes);
    expect(results.filter((r) => !r.isError)).toHaveLength(6);
    expect(results.filter((r) => r.isError).map((r) => r.body.error.code)).toEqual(
      Array(4).fill('workspace.quota_exceeded'),
    );
    const names = await readdir(workdirOf(user));
    const sizes = await Promise.all(names.map(async (n) => (await stat(join(workdirOf(user), n))).size));
    expect(names).toHaveLength(6);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(60 * KB);
  });

  it('counts space freed by a deletion before refusing', async () => {
    const user = await ctx.newUser();
    expect((await write(user, 'old.txt', 60 * KB)).isError).toBe(false);
    expect((await write(user, 'new.txt', 10 * KB)).body.error.code).toBe('workspace.quota_exceeded');
    await rm(join(workdirOf(user), 'old.txt'));
    expect((await write(user, 'new.txt', 10 * KB)).isError).toBe(false);
    expect(await usageRow(user)).toEqual({ used_bytes: String(10 * KB) });
  });

  it("keeps each user's quota their own", async () => {
    const full = await ctx.newUser();
    const neighbour = await ctx.newUser();
    expect((await write(full, 'filler.txt', 64 * KB)).isError).toBe(false);
    expect((await write(full, 'one-more.txt', 1)).body.error.code).toBe('workspace.quota_exceeded');
    expect((await write(neighbour, 'mine.txt', 60 * KB)).isError).toBe(false);
  });
});
