import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { roleAtLeast } from '../../../common/auth/user-role.js';
import { decodeKeyCursor, encodeKeyCursor } from '../../../common/pagination/key-cursor.js';
import { AgentsService } from '../../agents/index.js';
import { ThreadsService } from '../../threads/index.js';
import type { ThreadUsageDto, UsagePageDto, UsageQueryDto } from './usage.dto.js';
import { UsageErrors } from './usage.errors.js';
import { UsageReports } from './usage-reports.js';

/** Token usage as its readers see it: a thread's for its owner, the report for admins and users. */
@Injectable()
export class UsageService {
  constructor(
    private readonly threads: ThreadsService,
    private readonly reports: UsageReports,
    private readonly agents: AgentsService,
  ) {}

  /** The calls of the caller's thread by model (404 for a thread that is not theirs). */
  async ofThread(
    user: AuthenticatedUser,
    threadId: string,
    includeChildren: boolean,
  ): Promise<ThreadUsageDto> {
    await this.threads.getOwned(user, threadId);
    const { total, byModel } = await this.reports.threadByModel(threadId, includeChildren);
    return { total, by_model: byModel };
  }

  /** Admins: everyone's calls (or `user_id`'s); a normal user: their own only. */
  async report(viewer: AuthenticatedUser, query: UsageQueryDto): Promise<UsagePageDto> {
    const admin = roleAtLeast(viewer.role, 'admin');
    if (!admin && query.user_id !== undefined && query.user_id !== viewer.id)
      throw UsageErrors.userForbidden();
    const afterKey = query.cursor === undefined ? null : decodeKeyCursor(query.cursor, 1)[0];
    const rows = await this.reports.report({
      groupBy: query.group_by,
      userId: admin ? (query.user_id ?? null) : viewer.id,
      since: query.since === undefined ? null : new Date(query.since),
      until: query.until === undefined ? null : new Date(query.until),
      limit: query.limit,
      afterKey,
    });
    const items = rows.slice(0, query.limit);
    const last = items.at(-1);
    const byAgent = query.group_by === 'agent';
    const names = byAgent ? await this.agents.namesByIds(items.flatMap(({ key }) => key || [])) : null;
    return {
      items: items.map(({ key, ...sums }) => ({
        key: byAgent && key === '' ? null : key,
        ...(names === null ? {} : { label: names.get(key) ?? null }),
        ...sums,
      })),
      next_cursor: rows.length > query.limit && last !== undefined ? encodeKeyCursor([last.key]) : null,
    };
  }
}
