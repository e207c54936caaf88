import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { WorkspaceModule } from '../../../src/modules/workspace/workspace.module';
import { uploadTempDir } from '../../../src/modules/workspace/paths/upload-temp-dir';
import { WorkspaceService, type TempUpload } from '../../../src/modules/workspace/workspace.service';
import { TestContext, type TestUser } from '../../support/test-app';
import { outcomeOf, WORKDIR } from './tool-invocation';

describe('WorkspaceService (uploads and downloads)', () => {
  let ctx: TestContext;
  let dataDir: string;
  let service: WorkspaceService;
  let owner: TestUser;
  let other: TestUser;
  let demo: string; // real path of the owner's demo workdir
  let incoming: string; // where uploads are received before they are moved into place
  /** A complete upload, as multer leaves it in the temp folder. */
  const received = async (content: string): Promise<TempUpload> => {
    const path = join(incoming, randomBytes(8).toString('hex'));
    await writeFile(path, content);
    return { path, size: Buffer.byteLength(content) };
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'workspace-service-'));
    ctx = await TestContext.start({ DATA_DIR: dataDir }, [WorkspaceModule]);
    service = ctx.app.get(WorkspaceService);
    owner = await ctx.newUser();
    other = await ctx.newUser();
    demo = join(dataDir, 'users', owner.id, 'user-data', 'workdir', 'demo');
    incoming = uploadTempDir(dataDir);
    await mkdir(incoming, { recursive: true });
  });
  afterAll(async () => {
    await ctx.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates a project workdir with outputs/, for safe project names only', async () => {
    expect(await service.ensureWorkdir(owner, 'demo')).toBe(WORKDIR);
    expect((await stat(join(demo, 'outputs'))).isDirectory()).toBe(true);
    expect(await outcomeOf(service.ensureWorkdir(owner, '../demo'))).toEqual({
      code: 'workspace.invalid_project',
    });
  });

  it('stores an upload under a sanitised name and never overwrites', async () => {
    const uploads = [await received('one'), await received('two'), await received('three')];
    const first = await service.saveUpload(owner, WORKDIR, '../../etc/报告.txt', uploads[0]);
    const second = await service.saveUpload(owner, WORKDIR, '报告.txt', uploads[1]);
    const third = await service.saveUpload(owner, WORKDIR, 'C:\\tmp\\报告.txt', uploads[2]);
    expect([first, second, third]).toEqual([
      `${WORKDIR}报告.txt`,
      `${WORKDIR}报告-1.txt`,
      `${WORKDIR}报告-2.txt`,
    ]);
    expect(await readFile(join(demo, '报告.txt'), 'utf8')).toBe('one');
    expect(await readFile(join(demo, '报告-1.txt'), 'utf8')).toBe('two');
    expect(await readFile(join(demo, '报告-2.txt'), 'utf8')).toBe('three');
    expect(await service.saveUpload(owner, WORKDIR, '.env', await received('x'))).toBe(`${WORKDIR}env`);
    expect(await readdir(incoming)).toEqual([]);
  });

  it('does not write through a symlink that takes an upload name', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'workspace-outside-'));
    await symlink(join(outside, 'target.txt'), join(demo, 'trap.txt'));
    expect(await service.saveUpload(owner, WORKDIR, 'trap.txt', await received('x'))).toBe(
      `${WORKDIR}trap-1.txt`,
    );
    expect(await readdir(outside)).toEqual([]);
    await rm(outside, { recursive: true });
  });

  it('only uploads into a project workdir', async () => {
    for (const workdir of ['/home/gem/user-data/', '/home/gem/skills/pdf/', '/etc/', `${WORKDIR}outputs/`]) {
      await expect(service.saveUpload(owner, workdir, 'a.txt', await received('x'))).rejects.toMatchObject({
        kind: 'invalid',
        code: 'workspace.path_not_allowed',
      });
    }
  });

  it('lets the owner download their file', async () => {
    const download = await service.openForDownload(owner, `${WORKDIR}报告.txt`);
    expect({ ...download, stream: undefined }).toEqual({
      stream: undefined,
      size: 3,
      mimeType: 'text/plain; charset=utf-8',
      filename: '报告.txt',
    });
    expect(await text(download.stream)).toBe('one');
  });

  it("answers 404 for another user's file and for anything outside the caller's scope", async () => {
    const ownerFile = join(demo, '报告.txt');
    expect(await outcomeOf(service.openForDownload(other, `${WORKDIR}报告.txt`))).toEqual({
      code: 'workspace.not_found',
    });
    await symlink(join(dataDir, 'users', other.id), join(demo, 'other-user'));
    await expect(service.openForDownload(owner, `${WORKDIR}other-user/x`)).rejects.toMatchObject({
      kind: 'not_found',
      code: 'workspace.not_found',
    });
    await expect(service.openForDownload(other, '/home/gem/skills/pdf/SKILL.md')).rejects.toMatchObject({
      kind: 'not_found',
      code: 'workspace.not_found',
    });
    for (const path of ['/home/gem/user-data/../../etc/passwd', ownerFile, 'relative.txt', '/home/gem/x\0']) {
      await expect(service.openForDownload(other, path)).rejects.toMatchObject({
        kind: 'invalid',
        code: 'workspace.path_not_allowed',
      });
    }
    expect(await outcomeOf(service.openForDownload(owner, WORKDIR))).toEqual({
      code: 'workspace.is_a_directory',
    });
  });
});
