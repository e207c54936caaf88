import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noRuntimeCheck } from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import { TestContext, type TestUser } from '../../support/test-app';

describe('thread files and artifacts over HTTP', () => {
  let ctx: TestContext;
  let dataDir: string;
  let alice: TestUser;
  let thread: { id: string; workdir: string };
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'yuxi-thread-files-'));
    ctx = await TestContext.start({ DATA_DIR: dataDir, UPLOAD_LIMIT_BYTES: '4096' });
    alice = await ctx.newUser();
    thread = (await ctx.http.post('/api/threads').set(as(alice)).send({ agent_slug: 'default-chatbot' }))
      .body;
  });
  afterAll(() => ctx.close());

  const workdirOnDisk = () => join(dataDir, 'users', alice.id, 'user-data', 'workdir', `t-${thread.id}`);

  it('uploads into the workdir without overwriting, and downloads it back', async () => {
    const first = await ctx.http
      .post(`/api/threads/${thread.id}/files`)
      .set(as(alice))
      .attach('file', Buffer.from('v1'), 'notes.txt');
    expect(first.status).toBe(201);
    expect(first.body.path).toBe(`${thread.workdir}notes.txt`);
    const second = await ctx.http
      .post(`/api/threads/${thread.id}/files`)
      .set(as(alice))
      .attach('file', Buffer.from('v2'), 'notes.txt');
    expect(second.body.path).toBe(`${thread.workdir}notes-1.txt`);
    expect(await readFile(join(workdirOnDisk(), 'notes.txt'), 'utf8')).toBe('v1');
    expect(await readFile(join(workdirOnDisk(), 'notes-1.txt'), 'utf8')).toBe('v2');

    const download = await ctx.http
      .get(`/api/threads/${thread.id}/files`)
      .query({ path: 'notes-1.txt' })
      .set(as(alice));
    expect(download.status).toBe(200);
    expect(download.text ?? download.body.toString()).toBe('v2');
    expect(download.headers['content-disposition']).toContain("filename*=UTF-8''notes-1.txt");
  });

  it('refuses an upload over the limit with 413 and writes nothing', async () => {
    const before = await readdir(workdirOnDisk());
    const res = await ctx.http
      .post(`/api/threads/${thread.id}/files`)
      .set(as(alice))
      .attach('file', Buffer.alloc(8192, 1), 'big.bin');
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('common.payload_too_large');
    expect(await readdir(workdirOnDisk())).toEqual(before);
  });

  it('answers 400 for a traversal and 404 for a file that is not there', async () => {
    const traversal = await ctx.http
      .get(`/api/threads/${thread.id}/files`)
      .query({ path: '/etc/passwd' })
      .set(as(alice));
    expect(traversal.status).toBe(400);
    const missing = await ctx.http
      .get(`/api/threads/${thread.id}/files`)
      .query({ path: 'missing.txt' })
      .set(as(alice));
    expect(missing.status).toBe(404);
    const noFile = await ctx.http.post(`/api/threads/${thread.id}/files`).set(as(alice)).field('x', 'y');
    expect(noFile.status).toBe(400);
  });

  it('lists the artifacts presented in the thread, in order', async () => {
    await ctx.http
      .post(`/api/threads/${thread.id}/files`)
      .set(as(alice))
      .attach('file', Buffer.from('# r'), 'report.md');
    const result = await ctx.app.get(ToolExecutor).execute(
      { id: 'call-1', name: 'present_artifacts', args: { filepaths: [`${thread.workdir}report.md`] } },
      {
        user: { id: alice.id, role: alice.role, departmentId: alice.departmentId },
        runId: randomUUID(),
        threadId: thread.id,
        leaseToken: 'lease',
        workdir: thread.workdir,
        executableTools: new Set(['present_artifacts']),
        visibleTools: new Set(['present_artifacts']),
        isSubagent: false,
        verifyAuthorization: noRuntimeCheck,
      },
    );
    expect(result.isError).toBe(false);
    const list = await ctx.http.get(`/api/threads/${thread.id}/artifacts`).set(as(alice));
    expect(list.status).toBe(200);
    expect(list.body.items.map((a: { path: string }) => a.path)).toEqual([`${thread.workdir}report.md`]);
  });
});
