import { Inject, Injectable } from '@nestjs/common';
import { mkdir } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { AppConfig } from '../../../config/app-config.js';
import { WorkspaceErrors } from '../workspace.errors.js';
import { assertContained, isWithin } from './containment.js';
import { SharedSkillReadPolicies, type SharedSkillReadPolicy } from './shared-skill-read-policy.js';
import { parseVirtualPath, SHARED_SKILLS_ROOT, USER_DATA_ROOT, type WorkspaceArea } from './virtual-paths.js';
import type { WorkspaceUser } from './workspace-user.js';

export type WorkspaceAccess = 'read' | 'write';

export interface ResolvedWorkspacePath {
  /** Normalised virtual path, no trailing slash. */
  virtualPath: string;
  /** Where it lives on disk (lexically under `root`; its symlinks were checked). */
  realPath: string;
  area: WorkspaceArea;
  /** The directory it must not leave: the user's data, or one shared skill's folder. */
  root: string;
}

export interface ResolveOptions {
  access: WorkspaceAccess;
  /** Virtual workdir that relative paths are resolved against. */
  workdir?: string;
}

const SAFE_USER_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Maps the virtual paths agents see to real paths under DATA_DIR, and back:
 *   /home/gem/user-data/…     → <dataDir>/users/<userId>/user-data/… (read and write)
 *   /home/gem/skills/<slug>/… → <dataDir>/skills/<slug>/… (read only, if the shared-skill policy allows)
 * The user id comes from the caller, never from the path, so no virtual path reaches another user.
 */
@Injectable()
export class WorkspacePathResolver {
  private readonly dataDir: string;
  /** Resolutions made for one tool call (keyed by its execution context), by user, access, workdir, path. */
  private readonly byCall = new WeakMap<object, Map<string, Promise<ResolvedWorkspacePath>>>();

  constructor(
    config: AppConfig,
    @Inject(SharedSkillReadPolicies) private readonly sharedSkills: SharedSkillReadPolicy,
  ) {
    this.dataDir = resolve(config.dataDir);
  }

  userDataRoot(user: Pick<WorkspaceUser, 'id'>): string {
    // Ids come from the database; the check keeps a bad one from ever becoming a path component.
    if (!SAFE_USER_ID.test(user.id)) throw new Error('refusing a workspace for a malformed user id');
    return join(this.dataDir, 'users', user.id, 'user-data');
  }

  sharedSkillsRoot(): string {
    return join(this.dataDir, 'skills');
  }

  async resolve(user: WorkspaceUser, input: string, options: ResolveOptions): Promise<ResolvedWorkspacePath> {
    const parsed = parseVirtualPath(input, options.workdir);
    let root: string;
    let below: string[];
    if (parsed.area === 'user_data') {
      root = this.userDataRoot(user);
      below = parsed.segments;
      await mkdir(root, { recursive: true });
    } else {
      if (options.access === 'write') throw WorkspaceErrors.pathNotAllowed(input, 'read_only');
      const [slug, ...rest] = parsed.segments;
      if (slug === undefined || !(await this.sharedSkills.canRead(user, slug))) {
        throw WorkspaceErrors.pathNotAllowed(input, 'not_shared');
      }
      root = join(this.sharedSkillsRoot(), slug);
      below = rest;
    }
    const realPath = join(root, ...below);
    await assertContained(root, realPath, parsed.path);
    return { virtualPath: parsed.path, realPath, area: parsed.area, root };
  }

  /**
   * `resolve`, once per tool call: the execution boundary's resource check and the tool's handler ask
   * for the same path of the same call (`call` is its execution context), and the handler gets what the
   * check resolved (the same user, path, access and workdir) without walking the disk again.
   */
  resolveInCall(
    call: object,
    user: WorkspaceUser,
    input: string,
    options: ResolveOptions,
  ): Promise<ResolvedWorkspacePath> {
    let resolved = this.byCall.get(call);
    if (resolved === undefined) {
      resolved = new Map();
      this.byCall.set(call, resolved);
    }
    const key = `${user.id}\u0000${options.access}\u0000${options.workdir ?? ''}\u0000${input}`;
    let path = resolved.get(key);
    if (path === undefined) {
      path = this.resolve(user, input, options);
      resolved.set(key, path);
    }
    return path;
  }

  /** The virtual path of a real path inside this user's data or the shared skills, else undefined. */
  toVirtual(user: Pick<WorkspaceUser, 'id'>, realPath: string): string | undefined {
    const absolute = resolve(realPath);
    for (const [root, virtualRoot] of [
      [this.userDataRoot(user), USER_DATA_ROOT],
      [this.sharedSkillsRoot(), SHARED_SKILLS_ROOT],
    ] as const) {
      if (!isWithin(root, absolute)) continue;
      const rest = relative(root, absolute);
      return rest === '' ? virtualRoot : `${virtualRoot}/${rest.split(sep).join('/')}`;
    }
    return undefined;
  }
}
