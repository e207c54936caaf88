import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolInvocation } from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import { ToolRegistry } from '../../../src/modules/tools/registry/tool-registry';
import { FileTools } from '../../../src/modules/workspace/files/file-tools';
import { LargeToolResults } from '../../../src/modules/workspace/large-tool-results';
import { isInternalWorkspacePath } from '../../../src/modules/workspace/paths/virtual-paths';
import { WorkspaceModule } from '../../../src/modules/workspace/workspace.module';
import { TestContext, type TestUser } from '../../support/test-app';
import { invocationFor, outcomeOf, WORKDIR } from './tool-invocation';

describe('workspace file tools', () => {
  let ctx: TestContext;
  let dataDir: string;
  let tools: FileTools;
  let user: TestUser;
  let inv: ToolInvocation;
  let workdir: string; // real path of WORKDIR

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'workspace-tools-'));
    ctx = await TestContext.start({ DATA_DIR: dataDir }, [WorkspaceModule]);
    tools = ctx.app.get(FileTools);
    user = await ctx.newUser();
    inv = invocationFor(user);
    workdir = join(dataDir, 'users', user.id, 'user-data', 'workdir', 'demo');
  });
  afterAll(async () => {
    await ctx.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('registers the six tools with Chinese display names and workspace resources', () => {
    const registry = ctx.app.get(ToolRegistry);
    const names = ['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep'];
    const meta = names.map((name) => registry.get(name)?.metadata);
    expect(meta.map((m) => m?.displayName)).toEqual([
      '列出目录',
      '读取文件',
      '写入文件',
      '编辑文件',
      '查找文件',
      '搜索内容',
    ]);
    expect(meta.every((m) => m?.category === 'builtin' && m.tags.includes('文件'))).toBe(true);
    // Only read_file pages its own output: the others pass the large-result stage.
    expect(meta.filter((m) => m?.boundsOwnOutput).map((m) => m?.name)).toEqual(['read_file']);
    expect(registry.get('write_file')?.metadata.resources).toEqual([
      { kind: 'workspace_path', arg: 'file_path', access: 'write' },
    ]);
  });

  it('writes a file with its parent directories, then replaces it', async () => {
    const first = await tools.writeFile({ file_path: 'notes/a/b.txt', content: '你好\n' }, inv);
    expect(first).toEqual({ path: `${WORKDIR}notes/a/b.txt`, bytes_written: 7, created: true });
    expect(await readFile(join(workdir, 'notes/a/b.txt'), 'utf8')).toBe('你好\n');
    const second = await tools.writeFile({ file_path: `${WORKDIR}notes/a/b.txt`, content: 'x' }, inv);
    expect(second).toMatchObject({ created: false });
    expect(await readFile(join(workdir, 'notes/a/b.txt'), 'utf8')).toBe('x');
  });

  it('refuses content over the size cap and writing onto a directory', async () => {
    const huge = 'x'.repeat(10 * 1024 * 1024 + 1);
    expect(await outcomeOf(tools.writeFile({ file_path: 'huge.txt', content: huge }, inv))).toEqual({
      code: 'workspace.too_large',
    });
    await expect(stat(join(workdir, 'huge.txt'))).rejects.toThrow();
    expect(await outcomeOf(tools.writeFile({ file_path: 'notes', content: 'x' }, inv))).toEqual({
      code: 'workspace.is_a_directory',
    });
  });

  it('reads with cat -n line numbers and a 0-based offset window', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    await tools.writeFile({ file_path: 'ten.txt', content: `${lines.join('\r\n')}\r\n` }, inv);
    const all = await tools.readFile({ file_path: 'ten.txt' }, inv);
    expect(all).toBe(lines.map((line, i) => `${String(i + 1).padStart(6)}\t${line}`).join('\n'));
    const window = await tools.readFile({ file_path: 'ten.txt', offset: 3, limit: 2 }, inv);
    expect(window).toBe(
      '     4\tline 4\n     5\tline 5\n\n[lines 4-5 shown; more follow: read again with offset=5]',
    );
    expect(await outcomeOf(tools.readFile({ file_path: 'ten.txt', offset: 10 }, inv))).toEqual({
      code: 'workspace.offset_out_of_range',
    });
    await tools.writeFile({ file_path: 'empty.txt', content: '' }, inv);
    expect(await tools.readFile({ file_path: 'empty.txt' }, inv)).toBe('(the file is empty)');
  });

  it('cuts very long lines', async () => {
    await tools.writeFile({ file_path: 'long.txt', content: `${'y'.repeat(5000)}\nshort` }, inv);
    const text = (await tools.readFile({ file_path: 'long.txt' }, inv)) as string;
    expect(text).toContain(`     1\t${'y'.repeat(2000)} … [line truncated: 5000 characters]`);
    expect(text).toContain('     2\tshort');
  });

  it('returns images as a reference and refuses other binary files', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    await writeFile(join(workdir, 'chart.PNG'), png);
    expect(await tools.readFile({ file_path: 'chart.PNG' }, inv)).toEqual({
      type: 'image',
      path: `${WORKDIR}chart.PNG`,
      mime_type: 'image/png',
      size: png.length,
    });
    await writeFile(join(workdir, 'blob.bin'), Buffer.from([1, 2, 0, 3]));
    expect(await outcomeOf(tools.readFile({ file_path: 'blob.bin' }, inv))).toEqual({
      code: 'workspace.binary_file',
    });
    expect(await outcomeOf(tools.readFile({ file_path: 'notes' }, inv))).toEqual({
      code: 'workspace.is_a_directory',
    });
    expect(await outcomeOf(tools.readFile({ file_path: 'missing.txt' }, inv))).toEqual({
      code: 'workspace.not_found',
    });
  });

  it('edits exact text: absent, not unique, unique, replace_all', async () => {
    await tools.writeFile({ file_path: 'edit.md', content: 'a $& b\nfoo\nfoo\nfoo\n' }, inv);
    const edit = (old_string: string, new_string: string, replace_all?: boolean) =>
      tools.editFile({ file_path: 'edit.md', old_string, new_string, replace_all }, inv);
    expect(await outcomeOf(edit('bar', 'baz'))).toEqual({ code: 'workspace.edit_no_match' });
    await expect(edit('foo', 'bar')).rejects.toMatchObject({
      code: 'workspace.edit_not_unique',
      details: { occurrences: 3 },
    });
    expect(await edit('a $& b', 'c $1 d')).toEqual({ path: `${WORKDIR}edit.md`, replacements: 1 });
    expect(await edit('foo', 'bar', true)).toEqual({ path: `${WORKDIR}edit.md`, replacements: 3 });
    expect(await readFile(join(workdir, 'edit.md'), 'utf8')).toBe('c $1 d\nbar\nbar\nbar\n');
  });

  it('lists a directory with types, sizes and times', async () => {
    await mkdir(join(workdir, 'listing/sub'), { recursive: true });
    await writeFile(join(workdir, 'listing/f.txt'), 'hello');
    await symlink(join(workdir, 'listing/f.txt'), join(workdir, 'listing/link'));
    const listing = (await tools.ls({ path: 'listing' }, inv)) as { path: string; entries: any[] };
    expect(listing.path).toBe(`${WORKDIR}listing`);
    expect(listing.entries.map(({ name, type, path }) => ({ name, type, path }))).toEqual([
      { name: 'f.txt', type: 'file', path: `${WORKDIR}listing/f.txt` },
      { name: 'link', type: 'symlink', path: `${WORKDIR}listing/link` },
      { name: 'sub', type: 'dir', path: `${WORKDIR}listing/sub` },
    ]);
    expect(listing.entries[0]).toMatchObject({
      size: 5,
      modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(await outcomeOf(tools.ls({ path: 'listing/f.txt' }, inv))).toEqual({
      code: 'workspace.not_a_directory',
    });
  });

  const offload = (content: string, toolName: string, invocation = inv) =>
    ctx.app.get(LargeToolResults).offload({ content, toolName, invocation });

  it('offloads a large result into large_tool_results/<tool>-<sha256 prefix>.txt and previews its head and tail', async () => {
    expect(await offload('small', 'some_tool')).toBe('small');
    expect(await offload('s'.repeat(20_000), 'some_tool')).toBe('s'.repeat(20_000));
    const output = `BEGIN${'z'.repeat(90_000)}END`;
    const preview = await offload(output, 'mcp/../weird name:1');
    const digest = createHash('sha256').update(output).digest('hex').slice(0, 16);
    const path = `${WORKDIR}large_tool_results/mcp_weird_name_1-${digest}.txt`;
    expect(preview).toContain(`The full text was saved to ${path}.`);
    expect(preview).toContain('90008 characters (90008 bytes, 1 lines)');
    expect(preview).toContain('read_file');
    expect(preview).toContain('grep');
    expect(preview.length).toBeLessThan(4_000);
    expect(preview).toMatch(/\]\n\nBEGINz{1995}\n\n\[… 87008 characters not shown …\]\n\nz{997}END$/);
    expect(await readFile(join(workdir, `large_tool_results/mcp_weird_name_1-${digest}.txt`), 'utf8')).toBe(
      output,
    );
    expect(isInternalWorkspacePath(path)).toBe(true);
  });

  it('reads a saved large result back through the execution boundary page by page, never saving it again', async () => {
    const lines = Array.from({ length: 4000 }, (_, i) => `row ${i + 1} ${'v'.repeat(40)}`);
    const output = `${lines.join('\n')}\n`;
    expect(output.length).toBeGreaterThan(180_000);
    const preview = await offload(output, 'big_report');
    const path = /saved to (\S+\.txt)\./.exec(preview)![1];
    const savedBefore = (await readdir(join(workdir, 'large_tool_results'))).sort();
    const executor = ctx.app.get(ToolExecutor);
    const readContext = {
      ...inv.context,
      executableTools: new Set(['read_file']),
      visibleTools: new Set(['read_file']),
    };
    const read = (args: Record<string, unknown>) =>
      executor.execute({ id: `call_read_${randomUUID()}`, name: 'read_file', args }, readContext);
    const window = await read({ file_path: path, offset: 1000, limit: 3 });
    expect(window).toMatchObject({ isError: false, outcome: 'ok' });
    expect(window.content).toBe(
      [1001, 1002, 1003].map((n) => `${String(n).padStart(6)}\t${lines[n - 1]}`).join('\n') +
        '\n\n[lines 1001-1003 shown; more follow: read again with offset=1003]',
    );
    // The default 2000 lines are more than a page holds: the page stops at the inline limit, and says so.
    const page = await read({ file_path: path });
    expect(page.content.length).toBeLessThanOrEqual(20_000 + 100);
    expect(page.content).toMatch(/\[lines 1-\d+ shown; more follow: read again with offset=\d+\]$/);
    expect(page.content.startsWith(`     1\t${lines[0]}\n`)).toBe(true);
    expect((await readdir(join(workdir, 'large_tool_results'))).sort()).toEqual(savedBefore);
  });

  it('saves a one-line JSON result indented, so read_file shows every value of it whole', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}` }));
    const output = JSON.stringify({ rows });
    expect(output.length).toBeGreaterThan(60_000);
    const preview = await offload(output, 'mcp_list_rows');
    const path = /saved to (\S+\.txt)\./.exec(preview)![1];
    const saved = await readFile(join(workdir, path.slice(WORKDIR.length)), 'utf8');
    expect(JSON.parse(saved)).toEqual({ rows });
    expect(Math.max(...saved.split('\n').map((line) => line.length))).toBeLessThan(40);
    expect(preview).toContain(`(${Buffer.byteLength(saved)} bytes, ${saved.split('\n').length} lines)`);
    const page = await ctx.app
      .get(ToolExecutor)
      .execute(
        { id: 'call_read_json', name: 'read_file', args: { file_path: path, offset: 2, limit: 5 } },
        { ...inv.context, executableTools: new Set(['read_file']), visibleTools: new Set(['read_file']) },
      );
    expect(page.content).toBe(
      ['    {', '      "id": 1,', '      "name": "item 1"', '    },', '    {']
        .map((line, i) => `${String(i + 3).padStart(6)}\t${line}`)
        .join('\n') + '\n\n[lines 3-7 shown; more follow: read again with offset=7]',
    );
  });
});
