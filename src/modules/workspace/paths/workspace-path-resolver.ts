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

const callKey = (user: WorkspaceUser, input: string, options: ResolveOptions) =>
  `${user.id}\u0000${options.access}\u0000${options.workdir ?? ''}\u0000${input}`;

/**
 * Maps the virtual paths agents see to real paths under DATA_DIR, and back:
 *   /home/gem/user-data/…     → <dataDir>/users/<userId>/user-data/… (read and write)
 *   /home/gem/skills/<slug>/… → <dataDir>/skills/<slug>/… (read only, if the shared-skill policy allows)
 * The user id comes from the caller, never from the path, so no virtual path reaches another user.
 */
@Injectable()
export class WorkspacePathResolver {
  private readonly dataDir: string;
  /** What the resource check of a tool call resolved (keyed by its execution context), for its handler. */
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
   * `resolve` for the execution boundary's resource check of a tool call (`call` is its execution
   * context): the result is kept for that call's handler (`resolvedForCall`), which asks for the same
   * path and need not walk the disk again.
   */
  resolveForCall(
    call: object,
    user: WorkspaceUser,
    input: string,
    options: ResolveOptions,
  ): Promise<ResolvedWorkspacePath> {
    let kept = this.byCall.get(call);
    if (kept === undefined) {
      kept = new Map();
      this.byCall.set(call, kept);
    }
    const path = this.resolve(user, input, options);
    kept.set(callKey(user, input, options), path);
    return path;
  }

  /** What the resource check of this call resolved for the path, taken once; else `resolve` now. */
  resolvedForCall(
    call: object,
    user: WorkspaceUser,
    input: string,
    options: ResolveOptions,
  ): Promise<ResolvedWorkspacePath> {
    const kept = this.byCall.get(call);
    const key = callKey(user, input, options);
    const path = kept?.get(key);
    if (path === undefined) return this.resolve(user, input, options);
    kept!.delete(key);
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
