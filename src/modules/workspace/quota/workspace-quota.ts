import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { WorkspacePathResolver } from '../paths/workspace-path-resolver.js';
import type { WorkspaceUser } from '../paths/workspace-user.js';
import { WORKSPACE_LIMITS } from '../workspace-limits.js';
import { WorkspaceErrors } from '../workspace.errors.js';
import { measureUsage, replacedBytes } from './measure-usage.js';
import { WorkspaceUsageRepository, type UsageTransaction } from './workspace-usage.repository.js';

type QuotaUser = Pick<WorkspaceUser, 'id'>;

/**
 * WORKSPACE_QUOTA_BYTES for every write into a user's workspace, from any process.
 *
 * Check and write happen under a PostgreSQL advisory lock per user (transaction-scoped), so two writes
 * racing from the API and a worker cannot both pass the cap. The usage figure is a walk of the user's
 * data, stored in `workspace_usage` and kept current by the growth of each write made under the lock;
 * it is walked again when older than `measurementTtlMs`, and before any refusal, so space freed
 * outside these paths (files deleted) counts at once.
 */
@Injectable()
export class WorkspaceQuota {
  private readonly quotaBytes: number;

  constructor(
    private readonly usage: WorkspaceUsageRepository,
    private readonly resolver: WorkspacePathResolver,
    config: AppConfig,
  ) {
    this.quotaBytes = config.workspace.quotaBytes;
  }

  /**
   * The user's usage as the next write would see it (walked again when stale or when `measureNow`), for
   * a check made before the write itself (an upload while it arrives); the write still checks under the lock.
   */
  async current(user: QuotaUser, measureNow = false): Promise<{ usedBytes: number; quotaBytes: number }> {
    const usage = await this.usage.begin(user.id);
    try {
      const stored = measureNow ? null : await usage.read(WORKSPACE_LIMITS.quota.measurementTtlMs);
      const usedBytes = stored?.fresh === true ? stored.usedBytes : await this.measure(usage, user);
      await usage.commit(0);
      return { usedBytes, quotaBytes: this.quotaBytes };
    } finally {
      await usage.rollback();
    }
  }

  /** Runs `write`, which adds `bytes` of new files, if they fit. */
  addFiles<T>(user: QuotaUser, bytes: number, write: () => Promise<T>): Promise<T> {
    return this.withinQuota(user, () => Promise.resolve(bytes), write);
  }

  /** Runs `write`, which creates or replaces the file at `realPath` with `newBytes`: the delta counts. */
  replaceFile<T>(user: QuotaUser, realPath: string, newBytes: number, write: () => Promise<T>): Promise<T> {
    return this.withinQuota(user, async () => newBytes - (await replacedBytes(realPath)), write);
  }

  /** Runs `remove`, which frees what `freedBytes` measured (under the lock, just before): usage drops by it. */
  release<T>(user: QuotaUser, freedBytes: () => Promise<number>, remove: () => Promise<T>): Promise<T> {
    return this.withinQuota(user, async () => -(await freedBytes()), remove);
  }

  /** Runs `write`, whose growth (negative when it frees space) `growthOf` measures under the lock. */
  change<T>(user: QuotaUser, growthOf: () => Promise<number>, write: () => Promise<T>): Promise<T> {
    return this.withinQuota(user, growthOf, write);
  }

  private async withinQuota<T>(
    user: QuotaUser,
    growthOf: () => Promise<number>,
    write: () => Promise<T>,
  ): Promise<T> {
    const usage = await this.usage.begin(user.id);
    try {
      // Measured under the lock: an overwrite's old size cannot change between check and write.
      const growth = await growthOf();
      if (growth > 0) await this.assertRoom(usage, user, growth);
      const result = await write();
      await usage.commit(growth);
      return result;
    } finally {
      await usage.rollback();
    }
  }

  private async assertRoom(usage: UsageTransaction, user: QuotaUser, growth: number): Promise<void> {
    const stored = await usage.read(WORKSPACE_LIMITS.quota.measurementTtlMs);
    let used = stored?.fresh === true ? stored.usedBytes : await this.measure(usage, user);
    if (used + growth <= this.quotaBytes) return;
    if (stored?.fresh === true) used = await this.measure(usage, user);
    if (used + growth > this.quotaBytes) throw WorkspaceErrors.quotaExceeded(this.quotaBytes, used, growth);
  }

  private async measure(usage: UsageTransaction, user: QuotaUser): Promise<number> {
    const measured = await measureUsage(
      this.resolver.userDataRoot(user),
      WORKSPACE_LIMITS.quota.maxMeasuredEntries,
    );
    // A tree too large to walk is treated as full rather than guessed at.
    const used = measured.complete ? measured.bytes : Math.max(measured.bytes, this.quotaBytes);
    await usage.saveMeasurement(used);
    return used;
  }
}
