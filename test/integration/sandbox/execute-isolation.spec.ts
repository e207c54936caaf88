import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createConnection } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join, resolve } from 'node:path';
import { WorkspacePathResolver } from '../../../src/modules/workspace/paths/workspace-path-resolver';
import { execute } from '../../support/sandbox/execute-call';
import {
  expectSandboxStillWorks,
  printed,
  userDataOf,
  workdirOf,
} from '../../support/sandbox/sandbox-probes';
import { skillMd } from '../../support/skills';
import { TestContext, type TestUser } from '../../support/test-app';

// Set before the application starts: the service's own environment holds it.
const ENV_SECRET = `s3cr3t-${randomBytes(12).toString('hex')}`;
process.env.SANDBOX_TEST_SECRET = ENV_SECRET;

const listening = (server: Server, host: string) =>
  new Promise<number>((done) => server.listen(0, host, () => done((server.address() as AddressInfo).port)));

const hostCanConnect = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      done(true);
    });
    socket.on('error', () => done(false));
  });

/** Tries a TCP connection to each `host:port` from inside the sandbox: one `OPEN`/`CLOSED` line each. */
const CONNECT_SCRIPT = `python3 - "$@" <<'PY'
import socket, sys
for target in sys.argv[1:]:
    host, port = target.rsplit(':', 1)
    s = socket.socket(socket.AF_INET6 if ':' in host else socket.AF_INET)
    s.settimeout(2)
    try:
        s.connect((host, int(port)))
        print('OPEN', target)
    except Exception as e:
        print('CLOSED', target, type(e).__name__)
    finally:
        s.close()
PY`;

describe('execute: the sandbox isolates a command from the host and other users', () => {
  let ctx: TestContext;
  let user: TestUser;
  let other: TestUser;
  let dataDir: string;
  let otherData: string;
  let otherSecret: string;
  let workdir: string;

  beforeAll(async () => {
    ctx = await TestContext.start();
    dataDir = resolve(ctx.config.dataDir);
    user = await ctx.newUser();
    other = await ctx.newUser();
    workdir = workdirOf(ctx, user);
    await mkdir(workdir, { recursive: true });
    otherData = userDataOf(ctx, other);
    otherSecret = `other-user-secret-${randomBytes(12).toString('hex')}`;
    await mkdir(join(otherData, 'workdir', 'demo'), { recursive: true });
    await writeFile(join(otherData, 'secret.txt'), `${otherSecret}\n`);
    await writeFile(join(otherData, 'workdir', 'demo', 'secret.txt'), `${otherSecret}\n`);
  });
  afterAll(async () => {
    delete process.env.SANDBOX_TEST_SECRET;
    await ctx.close();
  });

  describe("another user's workspace", () => {
    it.each([
      ['its absolute host path', (id: string) => `cat ${dataDir}/users/${id}/user-data/secret.txt`],
      [
        'climbing out of user-data',
        (id: string) =>
          `ls -la /home/gem/user-data/../.. /home/gem/user-data/../../..; ` +
          `cat /home/gem/user-data/../../users/${id}/user-data/secret.txt ` +
          `/home/gem/user-data/../../../${dataDir}/users/${id}/user-data/secret.txt`,
      ],
      [
        'the root of other processes',
        (id: string) =>
          `ls /proc/*/root/ /proc/*/cwd/; cat /proc/*/root${dataDir}/users/${id}/user-data/secret.txt ` +
          `/proc/1/root${dataDir}/users/${id}/user-data/secret.txt /proc/*/cwd/secret.txt /proc/*/cwd/../../secret.txt`,
      ],
      [
        'a search of the whole file system',
        () =>
          `find / -path /proc -prune -o -name 'secret.txt' -print 2>/dev/null | head -50; ` +
          `find / -path /proc -prune -o -name 'secret.txt' -type f -exec cat {} + 2>/dev/null`,
      ],
      ['the mounts the sandbox sees', () => 'cat /proc/self/mountinfo; ls -la /lower /scratch /home/gem'],
    ])(
      'never shows it through %s',
      async (_, command) => {
        const { isError, body } = await execute(ctx, user, { command: command(other.id), timeout_s: 20 }, {});
        expect(isError).toBe(false);
        expect(printed(body)).not.toContain(otherSecret);
        await expectSandboxStillWorks(ctx, user);
      },
      40_000,
    );
  });

  describe("the service's environment", () => {
    it('is nowhere in env, /proc/*/environ or /proc/1/environ', async () => {
      const { isError, body } = await execute(ctx, user, {
        command:
          'env; echo ---; cat /proc/1/environ | tr "\\0" "\\n"; echo ---; ' +
          'cat /proc/*/environ | tr "\\0" "\\n"; echo ---; cat /proc/self/environ | tr "\\0" "\\n"; ' +
          'cat /proc/*/task/*/environ | tr "\\0" "\\n"',
      });
      expect(isError).toBe(false);
      expect(body.stdout).toContain('HOME=/home/gem');
      for (const secret of [ENV_SECRET, 'SANDBOX_TEST_SECRET', 'DATABASE_URL', 'JWT_SECRET', 'REDIS_URL'])
        expect(printed(body)).not.toContain(secret);
      await expectSandboxStillWorks(ctx, user);
    });
  });

  describe('the network', () => {
    let local: Server;
    let localPort: number;
    let servicePort: number;

    beforeAll(async () => {
      local = createServer((_, res) => res.end('local server reached'));
      localPort = await listening(local, '0.0.0.0');
      servicePort = await listening(ctx.app.getHttpServer(), '127.0.0.1');
    });
    afterAll(async () => {
      await new Promise((done) => local.close(done));
      await new Promise((done) => ctx.app.getHttpServer().close(done));
    });

    it('reaches none of the service, PostgreSQL, Redis or a local HTTP server', async () => {
      const ports = [servicePort, 5432, 6379, localPort];
      // What the command must not reach is there for the host.
      for (const port of ports) expect(await hostCanConnect(port)).toBe(true);
      const hostAddresses = Object.values(networkInterfaces())
        .flat()
        .filter((address) => address !== undefined && !address.internal && address.family === 'IPv4')
        .map((address) => address!.address);
      const targets = [
        ...ports.map((port) => `127.0.0.1:${port}`),
        ...ports.map((port) => `::1:${port}`),
        ...hostAddresses.map((address) => `${address}:${localPort}`),
      ];
      const { isError, body } = await execute(ctx, user, {
        command: `set -- ${targets.join(' ')}\n${CONNECT_SCRIPT}\ncurl -sS -m 2 http://127.0.0.1:${localPort}/ 2>&1 || true`,
        timeout_s: 60,
      });
      expect(isError).toBe(false);
      const lines = (body.stdout as string).split('\n').filter((line) => /^(OPEN|CLOSED) /.test(line));
      expect(lines.filter((line) => line.startsWith('OPEN'))).toEqual([]);
      expect(lines).toHaveLength(targets.length);
      expect(printed(body)).not.toContain('local server reached');
      await expectSandboxStillWorks(ctx, user);
    }, 60_000);
  });

  describe('read-only places', () => {
    let slug: string;
    let skillDir: string;
    const token = `pwned-${randomBytes(6).toString('hex')}`;
    const hostProbes = [`/usr/${token}`, `/etc/${token}`, `/${token}`, `/usr/bin/${token}`];

    beforeAll(async () => {
      const admin = await ctx.newUser({ role: 'superadmin' });
      slug = await ctx.newSharedSkill(
        admin,
        {
          'SKILL.md': skillMd('sandbox-attack'),
          'notes.md': 'skill notes\n',
        },
        { version: 2, read_scope: { level: 'users', user_ids: [user.id, admin.id] } },
      );
      skillDir = join(ctx.app.get(WorkspacePathResolver).sharedSkillsRoot(), slug);
    });
    afterAll(async () => {
      for (const path of hostProbes) await rm(path, { force: true });
    });

    it("refuses writes to a skill's folder and leaves the host's copy as it was", async () => {
      const before = await readdir(skillDir);
      const skillMdBefore = await readFile(join(skillDir, 'SKILL.md'), 'utf8');
      const at = `/home/gem/skills/${slug}`;
      const { isError, body } = await execute(
        ctx,
        user,
        {
          command: [
            `cat ${at}/notes.md`,
            `echo ${token} > ${at}/SKILL.md && echo WROTE-SKILL`,
            `echo ${token} > ${at}/new.txt && echo WROTE-NEW`,
            `rm -f ${at}/notes.md; mkdir ${at}/sub && echo MADE-DIR`,
            `mv ${at}/notes.md ${at}/moved.md && echo MOVED`,
            `unshare -Urm sh -c 'mount -o remount,rw ${at} && echo ${token} > ${at}/SKILL.md && echo REMOUNTED'`,
            `unshare -Urm sh -c 'umount ${at} && echo UNMOUNTED'`,
            'true',
          ].join('; '),
        },
        { skills: [slug] },
      );
      expect(isError).toBe(false);
      expect(body.stdout).toContain('skill notes');
      for (const marker of ['WROTE-SKILL', 'WROTE-NEW', 'MADE-DIR', 'MOVED', 'REMOUNTED'])
        expect(body.stdout).not.toContain(marker);
      expect(await readdir(skillDir)).toEqual(before);
      expect(await readFile(join(skillDir, 'SKILL.md'), 'utf8')).toBe(skillMdBefore);
      expect(await readFile(join(skillDir, 'notes.md'), 'utf8')).toBe('skill notes\n');
      await expectSandboxStillWorks(ctx, user);
    });

    it('refuses writes outside the workspace (/usr, /etc, /) and the host is unchanged', async () => {
      const passwd = readFileSync('/etc/passwd', 'utf8');
      const { isError, body } = await execute(ctx, user, {
        command: [
          ...hostProbes.map((path) => `echo ${token} > ${path} && echo WROTE ${path}`),
          `echo ${token} >> /etc/passwd && echo WROTE /etc/passwd`,
          `mkdir /usr/${token}-dir && echo WROTE dir`,
          `unshare -Urm sh -c 'mount -o remount,rw / && echo ${token} > /${token} && echo WROTE remount'`,
          `unshare -Urm sh -c 'mount -o remount,rw /usr && echo ${token} > /usr/${token} && echo WROTE remount-usr'`,
          'true',
        ].join('; '),
      });
      expect(isError).toBe(false);
      expect(body.stdout).not.toContain('WROTE');
      expect(body.stderr).toMatch(/Read-only file system/);
      for (const path of [...hostProbes, `/usr/${token}-dir`]) expect(existsSync(path)).toBe(false);
      expect(readFileSync('/etc/passwd', 'utf8')).toBe(passwd);
      await expectSandboxStillWorks(ctx, user);
    });
  });

  describe('links leading out of the workspace', () => {
    const outside = `/tmp/yuxi-sandbox-outside-${randomBytes(6).toString('hex')}`;
    const outsideSecret = `outside-secret-${randomBytes(12).toString('hex')}`;

    beforeAll(async () => {
      await mkdir(outside, { recursive: true });
      await writeFile(join(outside, 'secret.txt'), `${outsideSecret}\n`);
      await symlink('/etc', join(workdir, 'etc-link'));
      await symlink(otherData, join(workdir, 'other'));
      await symlink(outside, join(workdir, 'outside'));
      await symlink(join(otherData, 'secret.txt'), join(workdir, 'other-secret.txt'));
    });
    afterAll(() => rm(outside, { recursive: true, force: true }));

    it("shows nothing of the host's files or the other user through them", async () => {
      const hostOnlyLines = [
        ...readFileSync('/etc/passwd', 'utf8').split('\n'),
        ...(existsSync('/etc/shadow') ? readFileSync('/etc/shadow', 'utf8').split('\n') : []),
      ].filter((line) => line.length > 0 && !/^(root|gem|nobody):/.test(line));
      const { isError, body } = await execute(ctx, user, {
        command:
          'cat etc-link/passwd etc-link/shadow etc-link/hostname; ls -la etc-link/ other/ outside/; ' +
          'cat other/secret.txt other/workdir/demo/secret.txt outside/secret.txt other-secret.txt; ' +
          'cd other && cat secret.txt; true',
      });
      expect(isError).toBe(false);
      expect(printed(body)).not.toContain(otherSecret);
      expect(printed(body)).not.toContain(outsideSecret);
      for (const line of hostOnlyLines) expect(printed(body)).not.toContain(line);
      await expectSandboxStillWorks(ctx, user);
    });

    it('never writes or deletes through a link out when the command puts a folder in its place', async () => {
      const otherBefore = await readdir(otherData);
      const { isError, body } = await execute(ctx, user, {
        command: [
          'rm other outside',
          'mkdir other outside',
          'echo pwned > other/secret.txt',
          'echo pwned > other/planted.txt',
          'echo pwned > outside/secret.txt',
          'echo pwned > outside/planted.txt',
        ].join(' && '),
      });
      // Refused as a whole or applied inside the workspace: either way nothing outside changed.
      expect(refusedOrApplied(isError, body)).toBe(true);
      expect(await readFile(join(otherData, 'secret.txt'), 'utf8')).toBe(`${otherSecret}\n`);
      expect(await readdir(otherData)).toEqual(otherBefore);
      expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe(`${outsideSecret}\n`);
      expect(existsSync(join(outside, 'planted.txt'))).toBe(false);
      await expectSandboxStillWorks(ctx, user);
    });

    it('never deletes through a link out', async () => {
      const otherBefore = await readdir(otherData);
      const { isError, body } = await execute(ctx, user, {
        command: 'rm -rf other/* outside/* other-secret.txt etc-link/*; rm -f other/secret.txt; true',
      });
      expect(refusedOrApplied(isError, body)).toBe(true);
      expect(await readdir(otherData)).toEqual(otherBefore);
      expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe(`${outsideSecret}\n`);
      expect(await readFile(join(otherData, 'secret.txt'), 'utf8')).toBe(`${otherSecret}\n`);
      await expectSandboxStillWorks(ctx, user);
    });

    it('does not leave a host link leading out of the workspace when the command makes one', async () => {
      const { isError, body } = await execute(ctx, user, {
        command: [
          'ln -s /etc/passwd out',
          'ln -s ../../../../../../../../etc/passwd rel-out',
          `ln -s ${otherData} other-abs`,
          `ln -s /home/gem/user-data/../../../../../../../${otherData.slice(1)} other-rel`,
          'mkdir -p nest && ln -s ../../../../../../../../../etc nest/up',
          'ln -s inside.txt in-link && echo in > inside.txt',
          'ls -la',
        ].join(' && '),
      });
      expect(isError).toBe(false);
      expect(body.exit_code).toBe(0);
      const root = realpathSync(userDataOf(ctx, user));
      for (const name of ['out', 'rel-out', 'other-abs', 'other-rel', 'nest/up', 'in-link']) {
        const path = join(workdir, name);
        if (!existsSync(path) && !lstatExists(path)) continue;
        if (lstatSync(path).isSymbolicLink()) {
          const real = realpathOrNull(path);
          expect({ name, leadsTo: real === null || real.startsWith(`${root}/`) }).toEqual({
            name,
            leadsTo: true,
          });
        }
      }
      // A link inside the workspace is kept and still works; the outside ones are not links out.
      expect(await readFile(join(workdir, 'in-link'), 'utf8')).toBe('in\n');
      expect(readFileSync('/etc/passwd', 'utf8')).not.toContain('pwned');
      await expectSandboxStillWorks(ctx, user);
    });
  });
});

/** The command's writes were applied, or refused as a whole because a path leads out of the workspace. */
function refusedOrApplied(isError: boolean, body: Record<string, any>): boolean {
  return isError ? body.error?.code === 'workspace.path_not_allowed' : body.exit_code === 0;
}

function lstatExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
