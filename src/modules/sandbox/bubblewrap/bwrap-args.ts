import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import type { SandboxSpec } from '../sandbox.port.js';
import { ENTRY_SCRIPT } from './entry-script.js';

/** The limits of one command, per process (`launcher`) and for the whole sandbox (`tmpBytes`). */
export interface CommandLimits {
  memoryBytes: number;
  cpuSeconds: number;
  maxProcesses: number;
  maxOpenFiles: number;
  fileSizeBytes: number;
  tmpBytes: number;
}

/** What the host prepared for one command. */
export interface SandboxPaths {
  /** The per-call scratch folder (the overlay's upper and work folders go there). */
  scratch: string;
  /** A folder with the sandbox's own `passwd`, `group` and `hosts`. */
  etc: string;
}

/** The host's system folders, read-only; the `/bin`-style links of a merged-/usr system stay links. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** What programs need of the host's `/etc` (the dynamic linker's cache, `alternatives` links, time zone). */
const HOST_ETC = ['ld.so.cache', 'ld.so.conf', 'ld.so.conf.d', 'alternatives', 'localtime', 'ssl/certs'];
const OWN_ETC = ['passwd', 'group', 'hosts', 'sandbox-fstab'];

/** The fixed environment of every command: nothing of the service's is passed on. */
export const SANDBOX_ENV: Readonly<Record<string, string>> = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/home/gem',
  LANG: 'C.UTF-8',
  TMPDIR: '/tmp',
};

const sizedTmpfs = (path: string, bytes: number) => [
  '--perms',
  '1777',
  '--size',
  String(bytes),
  '--tmpfs',
  path,
];

function systemMounts(): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    if (!existsSync(dir)) continue;
    if (lstatSync(dir).isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else args.push('--ro-bind', dir, dir);
  }
  for (const name of HOST_ETC) {
    const path = `/etc/${name}`;
    if (existsSync(path)) args.push('--ro-bind', path, path);
  }
  return args;
}

/**
 * The `bwrap` command line of one command: every namespace of its own (no network but loopback), the
 * system read-only, the workspace below an overlay, the run's skills read-only, a private /tmp, its
 * own /proc and /dev, a fixed environment, killed with its parent.
 */
export function bwrapArgs(spec: SandboxSpec, paths: SandboxPaths, limits: CommandLimits): string[] {
  const args = [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--hostname',
    'sandbox',
    '--uid',
    '0',
    '--gid',
    '0',
    // Within the sandbox's user namespace only, for the overlay; the command has none of them.
    '--cap-add',
    'ALL',
    '--clearenv',
    ...Object.entries(SANDBOX_ENV).flatMap(([name, value]) => ['--setenv', name, value]),
    ...systemMounts(),
    ...OWN_ETC.flatMap((name) => ['--ro-bind', `${paths.etc}/${name}`, `/etc/${name}`]),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    // Every writable place is a size-capped tmpfs or the watched overlay; the rest is read-only.
    ...sizedTmpfs('/dev/shm', limits.tmpBytes),
    ...sizedTmpfs('/tmp', limits.tmpBytes),
    ...sizedTmpfs('/home/gem', limits.tmpBytes),
    '--ro-bind',
    spec.userData,
    '/lower',
    '--bind',
    paths.scratch,
    '/scratch',
    '--dir',
    '/home/gem/user-data',
    ...spec.skills.flatMap((skill) => ['--ro-bind', skill.hostPath, `/home/gem/skills/${skill.slug}`]),
    '--remount-ro',
    '/dev',
    '--remount-ro',
    '/',
    '--chdir',
    '/',
    '/bin/sh',
    '-c',
    ENTRY_SCRIPT,
    'sandbox-entry',
    spec.cwd,
    spec.command,
  ];
  return args;
}

/**
 * The command line that starts a sandbox: `prlimit` sets the per-process limits (every process of the
 * sandbox inherits them), then `sh` waits for a line on stdin (the host puts it in its cgroups first)
 * before it becomes `bwrap` with `args`.
 */
export function launcher(bwrap: string, limits: CommandLimits, args: string[]): string[] {
  return [
    `--as=${limits.memoryBytes}`,
    `--cpu=${limits.cpuSeconds}`,
    `--nproc=${limits.maxProcesses}`,
    `--nofile=${limits.maxOpenFiles}`,
    `--fsize=${limits.fileSizeBytes}`,
    '--core=0',
    '--',
    '/bin/sh',
    '-c',
    'read -r _ && exec "$@"',
    'sandbox',
    bwrap,
    ...args,
  ];
}
