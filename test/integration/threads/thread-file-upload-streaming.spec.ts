import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestContext, type TestUser } from '../../support/test-app';

const LIMIT = 64 * 1024;
const BOUNDARY = 'yuxi-test-boundary';

/** Multipart framing by hand, so a test can send part of a body and hold the rest back. */
const partHeader = (field: string, filename?: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"` +
  (filename === undefined ? '' : `; filename="${filename}"\r\nContent-Type: application/octet-stream`) +
  '\r\n\r\n';

interface RawResponse {
  status: number;
  body: Record<string, unknown>;
}

/** Resolves with the first complete response on the socket, or rejects after `boundMs` without one. */
function responseOf(socket: Socket, boundMs: number): Promise<RawResponse> {
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
      resolve({ status: Number(received.split(' ')[1]), body: JSON.parse(body) as Record<string, unknown> });
    });
    socket.on('error', () => undefined);
  });
}

async function eventually(check: () => Promise<boolean>, what: string, boundMs = 10_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached within ${boundMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('thread file uploads: ownership first, streamed to a temp file, tight limits', () => {
  let ctx: TestContext;
  let dataDir: string;
  let port: number;
  let alice: TestUser;
  let mallory: TestUser;
  let thread: { id: string; workdir: string };
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const tempDir = () => join(dataDir, 'tmp', 'uploads');
  const tempFiles = () => readdir(tempDir()).catch(() => [] as string[]);
  const workdirOnDisk = () => join(dataDir, 'users', alice.id, 'user-data', 'workdir', `t-${thread.id}`);
  const workdirFiles = async () => (await readdir(workdirOnDisk()).catch(() => [] as string[])).sort();
  const upload = () => ctx.http.post(`/api/threads/${thread.id}/files`).set(as(alice));

  /** Opens a raw connection and sends the head of a multipart upload that announces `declaredBytes`. */
  function startUpload(user: TestUser, declaredBytes: number, firstBytes: Buffer): Socket {
    const socket = connect(port, '127.0.0.1');
    socket.write(
      `POST /api/threads/${thread.id}/files HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Authorization: Bearer ${user.token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
        `Content-Length: ${declaredBytes}\r\n\r\n`,
    );
    socket.write(partHeader('file', 'held.bin'));
    socket.write(firstBytes);
    return socket;
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'yuxi-upload-stream-'));
    ctx = await TestContext.start({ DATA_DIR: dataDir, UPLOAD_LIMIT_BYTES: String(LIMIT) });
    const server: Server = ctx.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    alice = await ctx.newUser();
    mallory = await ctx.newUser();
    thread = (await ctx.http.post('/api/threads').set(as(alice)).send({ agent_slug: 'default-chatbot' }))
      .body;
  });
  afterAll(async () => {
    await ctx.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("answers another user's upload with 404 before reading its body (the body never arrives)", async () => {
    const socket = startUpload(mallory, 60 * 1024 * 1024, Buffer.alloc(16 * 1024, 7));
    try {
      const response = await responseOf(socket, 10_000);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ status_code: 404, code: 'threads.not_found' });
    } finally {
      socket.destroy();
    }
    expect(await tempFiles()).toEqual([]);
    expect(await workdirFiles()).toEqual([]);
  });

  it('refuses a malformed thread id with 400 before reading the body', async () => {
    const res = await ctx.http
      .post('/api/threads/not-a-uuid/files')
      .set(as(alice))
      .attach('file', Buffer.from('x'), 'x.txt');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'common.validation_failed',
      details: { fields: [{ field: 'id' }] },
    });
    expect(await tempFiles()).toEqual([]);
  });

  it('streams the file to a temp file under DATA_DIR and removes it when the client aborts', async () => {
    const socket = startUpload(alice, 40 * 1024, Buffer.alloc(8 * 1024, 1));
    await eventually(async () => (await tempFiles()).length === 1, 'a temp file while the body arrives');
    const [temp] = await tempFiles();
    await eventually(
      async () => (await readFile(join(tempDir(), temp))).length === 8 * 1024,
      'the bytes sent so far in the temp file',
    );
    socket.destroy();
    await eventually(async () => (await tempFiles()).length === 0, 'the temp file removed after the abort');
    expect(await workdirFiles()).toEqual([]);
  });

  it('moves a complete upload into the workdir and leaves no temp file', async () => {
    const res = await upload().attach('file', Buffer.alloc(LIMIT, 2), 'full.bin');
    expect(res.status).toBe(201);
    expect(res.body.path).toBe(`${thread.workdir}full.bin`);
    expect((await readFile(join(workdirOnDisk(), 'full.bin'))).length).toBe(LIMIT);
    expect(await tempFiles()).toEqual([]);
  });

  it('refuses a file over UPLOAD_LIMIT_BYTES with 413 and leaves neither a temp nor a partial file', async () => {
    const before = await workdirFiles();
    const res = await upload().attach('file', Buffer.alloc(LIMIT + 1, 3), 'big.bin');
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'common.payload_too_large', details: { limit_bytes: LIMIT } });
    expect(await workdirFiles()).toEqual(before);
    expect(await tempFiles()).toEqual([]);
  });

  it('refuses too many fields and a long field with 413', async () => {
    const before = await workdirFiles();
    let many = upload();
    for (let i = 0; i < 11; i++) many = many.field(`f${i}`, 'x');
    const tooMany = await many.attach('file', Buffer.from('a'), 'a.txt');
    expect(tooMany.status).toBe(413);
    expect(tooMany.body).toMatchObject({ code: 'common.payload_too_large', details: { limit: 'fields' } });

    const long = await upload()
      .field('note', 'x'.repeat(8 * 1024))
      .attach('file', Buffer.from('a'), 'a.txt');
    expect(long.status).toBe(413);
    expect(long.body).toMatchObject({ code: 'common.payload_too_large', details: { limit: 'field_size' } });

    expect(await workdirFiles()).toEqual(before);
    expect(await tempFiles()).toEqual([]);
  });

  it('refuses an unknown file field and a second file with 400, storing neither', async () => {
    const before = await workdirFiles();
    const other = await upload()
      .attach('file', Buffer.from('kept?'), 'first.txt')
      .attach('other', Buffer.from('x'), 'other.txt');
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({
      code: 'common.validation_failed',
      details: { fields: [{ field: 'other' }] },
    });
    const twice = await upload()
      .attach('file', Buffer.from('one'), 'one.txt')
      .attach('file', Buffer.from('two'), 'two.txt');
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({
      code: 'common.validation_failed',
      details: { fields: [{ field: 'file' }] },
    });
    expect(await workdirFiles()).toEqual(before);
    expect(await tempFiles()).toEqual([]);
  });

  it('removes the temp file when the upload cannot be placed in the workdir', async () => {
    const blocked = (
      await ctx.http.post('/api/threads').set(as(alice)).send({ agent_slug: 'default-chatbot' })
    ).body as { id: string };
    // A regular file where the thread's workdir folder should be: moving the upload there fails.
    const workdirs = join(dataDir, 'users', alice.id, 'user-data', 'workdir');
    await mkdir(workdirs, { recursive: true });
    await writeFile(join(workdirs, `t-${blocked.id}`), 'not a folder');
    const res = await ctx.http
      .post(`/api/threads/${blocked.id}/files`)
      .set(as(alice))
      .attach('file', Buffer.from('payload'), 'p.txt');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await readFile(join(workdirs, `t-${blocked.id}`), 'utf8')).toBe('not a folder');
    expect(await tempFiles()).toEqual([]);
  });
});
