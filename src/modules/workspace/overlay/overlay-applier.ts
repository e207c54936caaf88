import { Injectable } from '@nestjs/common';
import { chmod, copyFile, lstat, mkdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { measureUsage, replacedBytes } from '../quota/measure-usage.js';
import { WorkspacePathResolver } from '../paths/workspace-path-resolver.js';
import { USER_DATA_ROOT } from '../paths/virtual-paths.js';
import type { WorkspaceUser } from '../paths/workspace-user.js';
import { WorkspaceQuota } from '../quota/workspace-quota.js';
import { planOverlay, type OverlayLayer, type OverlayPlan } from './overlay-plan.js';

async function sizeOf(path: string): Promise<number> {
  const stats = await lstat(path).catch(() => null);
  if (stats === null) return 0;
  if (!stats.isDirectory()) return stats.isFile() ? stats.size : 0;
  return (await measureUsage(path, Number.MAX_SAFE_INTEGER)).bytes;
}

export interface AppliedOverlay {
  written: number;
  deleted: number;
  /** Paths left out: links leading out of the workspace, devices, sockets, fifos. */
  skipped: string[];
}

/**
 * Applies what a command wrote in an overlay over a user's workspace: all of it if it fits the quota
 * (its growth measured under the quota's lock), none of it otherwise. Every target goes through the
 * same path checks as `write_file` (a link in the workspace leading out of it is refused).
 */
@Injectable()
export class WorkspaceOverlayApplier {
  constructor(
    private readonly resolver: WorkspacePathResolver,
    private readonly quota: WorkspaceQuota,
  ) {}

  async apply(user: WorkspaceUser, layer: OverlayLayer): Promise<AppliedOverlay> {
    const root = this.resolver.userDataRoot(user);
    await mkdir(root, { recursive: true });
    let plan: OverlayPlan | null = null;
    const growth = async () => {
      plan = await planOverlay(root, layer);
      let bytes = 0;
      for (const file of plan.files)
        bytes += file.size - (await replacedBytes(this.realPath(root, file.path)));
      for (const path of plan.deletions) bytes -= await sizeOf(this.realPath(root, path));
      return bytes;
    };
    return this.quota.change(user, growth, () => this.write(user, plan!));
  }

  private realPath(root: string, relative: string): string {
    return `${root}/${relative}`;
  }

  /**
   * The real path of a relative path: its folder through the resolver (no link in it may lead out of
   * the workspace), its own name never followed, so a link there is replaced or removed, not written through.
   */
  private async target(user: WorkspaceUser, relative: string): Promise<string> {
    const slash = relative.lastIndexOf('/');
    const folder = slash < 0 ? USER_DATA_ROOT : `${USER_DATA_ROOT}/${relative.slice(0, slash)}`;
    const resolved = await this.resolver.resolve(user, folder, { access: 'write' });
    return join(resolved.realPath, relative.slice(slash + 1));
  }

  private async write(user: WorkspaceUser, plan: OverlayPlan): Promise<AppliedOverlay> {
    // Every target is checked before anything is written: a refused one leaves the workspace as it was.
    const targets = async (paths: string[]) => Promise.all(paths.map((path) => this.target(user, path)));
    const deletions = await targets(plan.deletions);
    const directories = await targets(plan.directories);
    const files = await targets(plan.files.map((file) => file.path));
    const links = await targets(plan.links.map((link) => link.path));
    for (const target of deletions) await rm(target, { recursive: true, force: true });
    for (const target of directories) await mkdir(target, { recursive: true });
    for (const [i, file] of plan.files.entries()) {
      // A link at the target is replaced, never written through.
      await rm(files[i], { force: true }).catch(() => undefined);
      await copyFile(file.source, files[i]);
      await chmod(files[i], file.mode);
    }
    for (const [i, link] of plan.links.entries()) {
      await rm(links[i], { force: true }).catch(() => undefined);
      await symlink(link.target, links[i]);
    }
    return {
      written: plan.files.length + plan.directories.length + plan.links.length,
      deleted: plan.deletions.length,
      skipped: plan.skipped,
    };
  }
}
