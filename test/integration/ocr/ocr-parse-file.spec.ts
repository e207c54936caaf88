import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpEngine } from '../../../src/modules/ocr/engines/http-engine';
import { LocalEngine } from '../../../src/modules/ocr/engines/local-engine';
import { OcrModule } from '../../../src/modules/ocr/ocr.module';
import { OcrParseFileTool } from '../../../src/modules/ocr/ocr-parse-file.tool';
import { DocumentExtraction } from '../../../src/modules/ocr/extraction/document-extraction';
import { MAX_LINE_CHARS } from '../../../src/modules/ocr/markdown-result';
import { OcrSettings } from '../../../src/modules/ocr/ocr-settings';
import { ConversionRunner } from '../../../src/modules/ocr/worker/conversion-runner';
import {
  noRuntimeCheck,
  type ToolExecutionContext,
} from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import { ToolRegistry } from '../../../src/modules/tools/registry/tool-registry';
import { WorkspacePathResolver } from '../../../src/modules/workspace/paths/workspace-path-resolver';
import { WorkspaceQuota } from '../../../src/modules/workspace/quota/workspace-quota';
import { makeDocx } from '../../support/fixtures/make-docx';
import { bloatPart } from '../../support/fixtures/make-lying-zip';
import { makePdf, makePdfWithoutText } from '../../support/fixtures/make-pdf';
import { makeXlsx } from '../../support/fixtures/make-xlsx';
import { TestContext, type TestUser } from '../../support/test-app';

const WORKDIR = '/home/gem/user-data/workdir/demo/';
const TOOL = 'ocr_parse_file';

describe('ocr_parse_file through the tool executor', () => {
  let ctx: TestContext;
  let dataDir: string;
  let executor: ToolExecutor;
  let user: TestUser;
  let workdir: string; // real path of WORKDIR

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ocr-tool-'));
    ctx = await TestContext.start({ DATA_DIR: dataDir }, [OcrModule]);
    executor = ctx.app.get(ToolExecutor);
    user = await ctx.newUser();
    workdir = join(dataDir, 'users', user.id, 'user-data', 'workdir', 'demo');
    await mkdir(workdir, { recursive: true });
  });
  afterAll(async () => {
    await ctx.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  function context(): ToolExecutionContext {
    return {
      user: { id: user.id, role: user.role, departmentId: user.departmentId },
      runId: randomUUID(),
      threadId: randomUUID(),
      leaseToken: 'lease-1',
      workdir: WORKDIR,
      executableTools: new Set([TOOL]),
      visibleTools: new Set([TOOL]),
      isSubagent: false,
      verifyAuthorization: noRuntimeCheck,
    };
  }

  async function call(args: Record<string, unknown>) {
    const result = await executor.execute({ id: `call-${randomUUID()}`, name: TOOL, args }, context());
    return { ...result, body: JSON.parse(result.content) as Record<string, any> };
  }

  it('is registered as an available builtin with its workspace resource', () => {
    const tool = ctx.app.get(ToolRegistry).get(TOOL)!;
    expect(tool.metadata).toMatchObject({
      category: 'builtin',
      displayName: '文档解析',
      tags: ['文档', 'OCR'],
      resources: [{ kind: 'workspace_path', arg: 'file_path', access: 'read' }],
    });
    expect(tool.availability()).toEqual({ available: true, reason: null });
  });

  it('writes the Markdown under outputs/ocr, never overwriting an earlier result', async () => {
    await writeFile(
      join(workdir, 'report.pdf'),
      await makePdf([['Quarterly report alpha'], ['Page two bravo']]),
    );
    const first = await call({ file_path: 'report.pdf' });
    expect(first.isError).toBe(false);
    const markdown = '## Page 1\n\nQuarterly report alpha\n\n## Page 2\n\nPage two bravo';
    expect(first.body).toEqual({
      source_path: `${WORKDIR}report.pdf`,
      parsed_path: `${WORKDIR}outputs/ocr/report.md`,
      engine: 'local',
      char_count: markdown.length,
      preview: markdown,
      truncated: false,
    });
    expect(await readFile(join(workdir, 'outputs/ocr/report.md'), 'utf8')).toBe(`${markdown}\n`);

    const second = await call({ file_path: `${WORKDIR}report.pdf`, engine: 'local' });
    const third = await call({ file_path: 'report.pdf' });
    expect([second.body.parsed_path, third.body.parsed_path]).toEqual([
      `${WORKDIR}outputs/ocr/report-1.md`,
      `${WORKDIR}outputs/ocr/report-2.md`,
    ]);
    expect((await readdir(join(workdir, 'outputs/ocr'))).sort()).toEqual([
      'report-1.md',
      'report-2.md',
      'report.md',
    ]);
  });

  it('keeps Chinese in the result name and previews the first 1200 characters of a long document', async () => {
    const paragraphs = Array.from(
      { length: 60 },
      (_, i) => `第${i + 1}段：这是一段用于测试预览截断的中文内容。`,
    );
    await writeFile(
      join(workdir, '年度 报告（终稿）.docx'),
      await makeDocx({ title: '年度报告', paragraphs }),
    );
    const { body, isError } = await call({ file_path: '年度 报告（终稿）.docx' });
    expect(isError).toBe(false);
    expect(body.parsed_path).toBe(`${WORKDIR}outputs/ocr/年度_报告_终稿.md`);
    const written = await readFile(join(workdir, 'outputs/ocr/年度_报告_终稿.md'), 'utf8');
    expect(written.startsWith('# 年度报告\n\n**第1段')).toBe(true);
    expect(body.char_count).toBe([...written.trimEnd()].length);
    expect(body.truncated).toBe(true);
    expect([...body.preview]).toHaveLength(1200);
    expect(written.startsWith(body.preview)).toBe(true);
  });

  it('detects the type from the bytes: a PDF named .docx is parsed, a text file named .pdf is refused', async () => {
    await writeFile(join(workdir, 'misnamed.docx'), await makePdf([['Actually a PDF']]));
    expect((await call({ file_path: 'misnamed.docx' })).body.preview).toContain('Actually a PDF');

    await writeFile(join(workdir, 'fake.pdf'), 'just some text\n');
    const refused = await call({ file_path: 'fake.pdf' });
    expect(refused.isError).toBe(true);
    expect(refused.body.error).toMatchObject({
      code: 'ocr.unsupported_type',
      details: { detected: 'unknown' },
    });
  });

  it('reports a PDF without a text layer as ocr.no_text and writes nothing', async () => {
    await writeFile(join(workdir, 'scan.pdf'), await makePdfWithoutText());
    const { body } = await call({ file_path: 'scan.pdf' });
    expect(body.error).toMatchObject({ code: 'ocr.no_text', message: expect.stringContaining('text layer') });
    await expect(readFile(join(workdir, 'outputs/ocr/scan.md'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('answers a ZIP bomb whose sizes lie with ocr.archive_too_large, writes nothing and parses the next file', async () => {
    const docx = await makeDocx({ title: 'After the bomb', paragraphs: ['still parsed'] });
    await writeFile(
      join(workdir, 'bomb.docx'),
      bloatPart(docx, 'word/document.xml', Buffer.alloc(32 << 20, 0x20)),
    );
    const refused = await call({ file_path: 'bomb.docx' });
    expect(refused).toMatchObject({ isError: true, errorCode: 'ocr.archive_too_large' });
    expect(refused.body.error.code).toBe('ocr.archive_too_large');
    await expect(readFile(join(workdir, 'outputs/ocr/bomb.md'))).rejects.toMatchObject({ code: 'ENOENT' });

    await writeFile(join(workdir, 'after.docx'), docx);
    const next = await call({ file_path: 'after.docx' });
    expect(next.isError).toBe(false);
    expect(next.body.preview).toContain('still parsed');
  });

  it('parses a small workbook whose cell holds 2 M blanks between two words, breaking the long line', async () => {
    // Mixed blanks, so that the sheet compresses less than the ZIP-bomb ratio allows.
    let seed = 1;
    const blank = () => [' ', '\t', '\u00a0'][(seed = (seed * 48_271) % 2_147_483_647) % 3];
    const cell = `x${Array.from({ length: 2_000_000 }, blank).join('')}y`;
    await writeFile(join(workdir, 'spaces.xlsx'), await makeXlsx([{ name: 'S', rows: [['h'], [cell]] }]));
    const { isError, body } = await call({ file_path: 'spaces.xlsx' });
    expect(isError).toBe(false);
    expect(body.parsed_path).toBe(`${WORKDIR}outputs/ocr/spaces.md`);
    const written = await readFile(join(workdir, 'outputs/ocr/spaces.md'), 'utf8');
    const lines = written.split('\n');
    expect(lines.slice(0, 5)).toEqual(['## S', '', '| h |', '| --- |', '| x']);
    expect(lines.every((line) => line.length <= MAX_LINE_CHARS && !/[ \t\u00a0]$/.test(line))).toBe(true);
    expect(written.replace(/\s+/g, '')).toBe('##S|h||---||xy|');
  });

  it('extracts KB formats in the conversion worker: hidden HTML, inner blanks and heading-like lines', async () => {
    const extraction = ctx.app.get(DocumentExtraction);
    const signal = new AbortController().signal;
    const extract = (name: string, type: 'html' | 'md' | 'txt', text: string) =>
      extraction.toMarkdown(name, type, Buffer.from(text), signal);
    const page = `<p>shown</p><!-- gone --><script>hidden()</script>${'<!--'.repeat(40_000)}-->after`;
    expect(await extract('page.html', 'html', page)).toBe('shown\n\nafter');
    expect(await extract('tags.html', 'html', `<p>a</p>${'<a'.repeat(40_000)}`)).toMatch(/^a\n\na\n\na/);
    const spaced = await extract('notes.txt', 'txt', `x${' '.repeat(80_000)}y\n`);
    expect(spaced.replace(/\s+/g, '')).toBe('xy');
    expect(spaced.split('\n').every((line) => line.length <= MAX_LINE_CHARS)).toBe(true);
    const heading = `# a${' '.repeat(5000)}\u2028x`;
    expect(await extract('doc.md', 'md', `# Title\n\n${heading}\n`)).toBe(`# Title\n\n${heading}`);
  });

  it("cleans up an OCR service's answer in the conversion worker, which stops at its time budget", async () => {
    const answer = `# Scan\n\nx${' \t\u00a0'.repeat(30_000)}y   \n`;
    const service = {
      name: 'http',
      unavailableReason: () => null,
      convert: () => Promise.resolve(answer),
    } as unknown as HttpEngine;
    const tool = new OcrParseFileTool(
      ctx.app.get(WorkspacePathResolver),
      ctx.app.get(WorkspaceQuota),
      new OcrSettings({ defaultEngine: 'http' }),
      ctx.app.get(ToolRegistry),
      ctx.app.get(ConversionRunner),
      ctx.app.get(LocalEngine),
      service,
    );
    await writeFile(join(workdir, 'scan.pdf'), await makePdf([['unused']]));
    const invocation = { context: context(), toolCallId: 'call-h', signal: new AbortController().signal };
    const result = await tool.parseFile({ file_path: 'scan.pdf' }, invocation);
    const parsedPath = (result as { parsed_path: string }).parsed_path;
    const written = await readFile(join(workdir, parsedPath.slice(WORKDIR.length)), 'utf8');
    expect(result).toMatchObject({ engine: 'http', preview: expect.stringMatching(/^# Scan\n\nx\n/) });
    expect(written.split('\n').every((line) => line.length <= MAX_LINE_CHARS && !/\s$/.test(line))).toBe(
      true,
    );
    expect(written.replace(/\s+/g, '')).toBe('#Scanxy');

    const hurried = new ConversionRunner(new OcrSettings({ workerTimeoutMs: 1 }));
    await expect(hurried.convertText('text', 'a', invocation.signal)).rejects.toMatchObject({
      code: 'ocr.too_complex',
      details: { timeout_ms: 1 },
    });
    expect(hurried.liveWorkers).toBe(0);
  });

  it('refuses paths outside the workspace, missing files and the unconfigured http engine', async () => {
    expect((await call({ file_path: '/etc/passwd' })).body.error.code).toBe('workspace.path_not_allowed');
    expect((await call({ file_path: 'missing.pdf' })).body.error.code).toBe('workspace.not_found');
    expect((await call({ file_path: 'report.pdf', engine: 'http' })).body.error.code).toBe(
      'ocr.engine_unavailable',
    );
    expect((await call({ file_path: 'report.pdf', engine: 'cloud' })).body.error.code).toBe(
      'tools.invalid_arguments',
    );
  });

  it('refuses a file over the size limit, and does nothing when OCR is disabled', async () => {
    const tool = (values: ConstructorParameters<typeof OcrSettings>[0]) =>
      new OcrParseFileTool(
        ctx.app.get(WorkspacePathResolver),
        ctx.app.get(WorkspaceQuota),
        new OcrSettings(values),
        ctx.app.get(ToolRegistry),
        ctx.app.get(ConversionRunner),
        ctx.app.get(LocalEngine),
        ctx.app.get(HttpEngine),
      );
    const invocation = { context: context(), toolCallId: 'call-x', signal: new AbortController().signal };
    await expect(
      tool({ maxFileBytes: 100 }).parseFile({ file_path: 'report.pdf' }, invocation),
    ).rejects.toMatchObject({ code: 'ocr.file_too_large' });
    const disabled = tool({ defaultEngine: 'disable' });
    expect(disabled.availability()).toEqual({
      available: false,
      reason: expect.stringContaining('disabled'),
    });
    await expect(disabled.parseFile({ file_path: 'report.pdf' }, invocation)).rejects.toMatchObject({
      code: 'ocr.disabled',
    });
  });
});
