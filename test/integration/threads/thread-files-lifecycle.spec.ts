import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestContext, type TestUser } from '../../support/test-app';

const KB = 1024;
const QUOTA = 256 * KB;
const BOUNDARY = 'yuxi-lifecycle-boundary';

interface Thread {
  id: string;
  workdir: string;
}

async function until(check: () => Promise<boolean>, what: string, boundMs = 10_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached within ${boundMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Resolves with the status and JSON body of the first complete response on the socket. */
function responseOf(socket: Socket, boundMs: number): Promise<{ status: number; body: Record<string, any> }> {
  return new Promise((resolve, reject) => {
    let received = '';
    const timer = setTimeout(() => reject(new Error(`no response within ${boundMs} ms`)), boundMs);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const headerEnd = received.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const length = Number(/content-length: (\d+)/i.exec(received.slice(0, headerEnd))?.[1] ?? 0);
      const body = received.slice(headerEnd + 4);
      if (Buffer.byteLength(body) < length) return;
      clearTimeout(timer);
      resolve({ status: Number(received.split(' ')[1]), body: JSON.parse(body) as Record<string, any> });
    });
    socket.on('error', () => undefined);
  });
}

describe('thread workdir files: delete, deleted with their thread, uploads counted while they arrive', () => {
  let ctx: TestContext;
  let dataDir: string;
  let port: number;
  let alice: TestUser;
  let mallory: TestUser;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const onDisk = (user: TestUser, thread: Thread, name = '') =>
    join(dataDir, 'users', user.id, 'user-data', 'workdir', `t-${thread.id}`, name);
  const tempFiles = () => readdir(join(dataDir, 'tmp', 'uploads')).catch(() => [] as string[]);
  const exists = (path: string) =>
    stat(path).then(
      () => true,
      () => false,
    );
  const usage = async (user: TestUser) =>
    Number(
      (
        await ctx.dataSource.query<{ used_bytes: string }[]>(
          `SELECT used_bytes FROM workspace_usage WHERE user_id = $1`,
          [user.id],
        )
      )[0]?.used_bytes,
    );

  async function newThread(user: TestUser): Promise<Thread> {
    const res = await ctx.http.post('/api/threads').set(as(user)).send({ agent_slug: 'default-chatbot' });
    expect(res.status).toBe(201);
    return res.body as Thread;
  }

  async function upload(user: TestUser, thread: Thread, name: string, bytes: number): Promise<string> {
    const res = await ctx.http
      .post(`/api/threads/${thread.id}/files`)
      .set(as(user))
      .attach('file', Buffer.alloc(bytes, 3), name);
    expect(res.status).toBe(201);
    return (res.body as { path: string }).path;
  }

  const remove = (user: TestUser, thread: Thread, path: string) =>
    ctx.http.delete(`/api/threads/${thread.id}/files`).query({ path }).set(as(user));

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'yuxi-thread-files-'));
    ctx = await TestContext.start({
      DATA_DIR: dataDir,
      WORKSPACE_QUOTA_BYTES: String(QUOTA),
      UPLOAD_LIMIT_BYTES: String(4 * QUOTA),
    });
    const server: Server = ctx.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    alice = await ctx.newUser();
    mallory = await ctx.newUser();
  });
  afterAll(async () => {
    await ctx.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  describe('DELETE /api/threads/:id/files', () => {
    it('deletes a file of the workdir by relative or absolute path and gives its bytes back to the quota', async () => {
      const thread = await newThread(alice);
      await upload(alice, thread, 'keep.bin', 10 * KB);
      const absolute = await upload(alice, thread, 'a.bin', 20 * KB);
      await upload(alice, thread, 'b.bin', 30 * KB);
      expect(await usage(alice)).toBe(60 * KB);

      expect((await remove(alice, thread, 'b.bin')).status).toBe(204);
      expect(await usage(alice)).toBe(30 * KB);
      const res = await remove(alice, thread, absolute);
      expect(res.status).toBe(204);
      expect(await usage(alice)).toBe(10 * KB);
      expect((await readdir(onDisk(alice, thread))).sort()).toEqual(['keep.bin', 'outputs']);
    });

    it("answers 404 for another user's thread and leaves the file", async () => {
      const thread = await newThread(alice);
      await upload(alice, thread, 'mine.bin', KB);
      const res = await remove(mallory, thread, 'mine.bin');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'threads.not_found' });
      expect(await exists(onDisk(alice, thread, 'mine.bin'))).toBe(true);
    });

    it("refuses a path outside the thread's workdir, even one of the caller's other threads", async () => {
      const thread = await newThread(alice);
      const other = await newThread(alice);
      await upload(alice, other, 'other.bin', KB);
      await writeFile(join(dataDir, 'users', alice.id, 'user-data', 'loose.txt'), 'x');
      for (const path of [
        `${other.workdir}other.bin`,
        `../t-${other.id}/other.bin`,
        '/home/gem/user-data/loose.txt',
      ]) {
        const res = await remove(alice, thread, path);
        expect({ path, status: res.status, body: res.body }).toMatchObject({
          path,
          status: 400,
          body: { code: 'workspace.path_not_allowed', details: { reason: 'outside_workdir' } },
        });
      }
      expect(await exists(onDisk(alice, other, 'other.bin'))).toBe(true);
      expect(await exists(join(dataDir, 'users', alice.id, 'user-data', 'loose.txt'))).toBe(true);
    });

    it('refuses read-only skill paths with 403, the workdir itself and a directory with 400, a missing file with 404', async () => {
      const thread = await newThread(alice);
      await upload(alice, thread, 'creates-outputs.bin', 1);
      const skill = await remove(alice, thread, '/home/gem/skills/some-skill/SKILL.md');
      expect(skill.status).toBe(403);
      expect(skill.body).toMatchObject({
        code: 'workspace.path_not_allowed',
        details: { reason: 'read_only' },
      });
      const workdir = await remove(alice, thread, thread.workdir);
      expect(workdir.status).toBe(400);
      expect(workdir.body).toMatchObject({ code: 'workspace.path_not_allowed' });
      const directory = await remove(alice, thread, 'outputs');
      expect(directory.status).toBe(400);
      expect(directory.body).toMatchObject({ code: 'workspace.is_a_directory' });
      expect(await exists(onDisk(alice, thread, 'outputs'))).toBe(true);
      const missing = await remove(alice, thread, 'nothing.txt');
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ code: 'workspace.not_found' });
    });
  });

  describe('DELETE /api/threads/:id', () => {
    it("removes the thread's workdir with it and gives its bytes back, leaving other workdirs", async () => {
      const doomed = await newThread(mallory);
      const kept = await newThread(mallory);
      await upload(mallory, doomed, 'doomed.bin', 40 * KB);
      await upload(mallory, kept, 'kept.bin', 5 * KB);
      await mkdir(onDisk(mallory, doomed, 'nested/deeper'), { recursive: true });
      await writeFile(onDisk(mallory, doomed, 'nested/deeper/empty.txt'), '');
      expect(await usage(mallory)).toBe(45 * KB);

      expect((await ctx.http.delete(`/api/threads/${doomed.id}`).set(as(mallory))).status).toBe(204);
      expect(await exists(onDisk(mallory, doomed))).toBe(false);
      expect(await exists(onDisk(mallory, kept, 'kept.bin'))).toBe(true);
      expect(await usage(mallory)).toBe(5 * KB);
    });

    it('refuses to delete a thread with an unfinished run (409 threads.run_active), then deletes it once the run is cancelled', async () => {
      const thread = await newThread(alice);
      await upload(alice, thread, 'in-use.bin', KB);
      const run = await ctx.http.post(`/api/threads/${thread.id}/runs`).set(as(alice)).send({ input: 'hi' });
      expect(run.status).toBe(202);

      const refused = await ctx.http.delete(`/api/threads/${thread.id}`).set(as(alice));
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        code: 'threads.run_active',
        details: { run_id: run.body.run_id, status: 'queued' },
      });
      expect((await ctx.http.get(`/api/threads/${thread.id}`).set(as(alice))).status).toBe(200);
      expect(await exists(onDisk(alice, thread, 'in-use.bin'))).toBe(true);

      const cancelled = await ctx.http.post(`/api/runs/${run.body.run_id}/cancel`).set(as(alice));
      expect(cancelled.body).toMatchObject({ status: 'cancelled' });
      expect((await ctx.http.delete(`/api/threads/${thread.id}`).set(as(alice))).status).toBe(204);
      expect(await exists(onDisk(alice, thread))).toBe(false);
    });
  });

  describe('uploads against the quota', () => {
    it('refuses an upload that would pass the quota while it arrives, and removes its temp file', async () => {
      const user = await ctx.newUser();
      const thread = await newThread(user);
      await upload(user, thread, 'filler.bin', 100 * KB);
      const socket = connect(port, '127.0.0.1');
      const total = 4 * QUOTA;
      const head =
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n';
      const tail = `\r\n--${BOUNDARY}--\r\n`;
      const response = responseOf(socket, 25_000);
      try {
        socket.write(
          `POST /api/threads/${thread.id}/files HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
            `Authorization: Bearer ${user.token}\r\n` +
            `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
            `Content-Length: ${Buffer.byteLength(head) + total + Buffer.byteLength(tail)}\r\n\r\n${head}`,
        );
        socket.write(Buffer.alloc(64 * KB, 1));
        await until(async () => (await tempFiles()).length === 1, 'the upload streaming to a temp file');
        // Past the room left (156 KiB): refused before the rest of the file was even sent.
        socket.write(Buffer.alloc(128 * KB, 1));
        await until(async () => (await tempFiles()).length === 0, 'the temp file removed at the quota');
        socket.write(Buffer.alloc(total - 192 * KB, 1));
        socket.end(tail);
        expect(await response).toMatchObject({
          status: 413,
          body: { code: 'workspace.quota_exceeded', details: { quota_bytes: QUOTA, used_bytes: 100 * KB } },
        });
      } finally {
        socket.destroy();
      }
      expect(await tempFiles()).toEqual([]);
      expect((await readdir(onDisk(user, thread))).sort()).toEqual(['filler.bin', 'outputs']);
      expect(await usage(user)).toBe(100 * KB);
    });
  });
});
