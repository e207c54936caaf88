import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import { roleAtLeast } from '../../common/auth/user-role.js';
import { decodeCursor, toPage, type Page } from '../../common/pagination/cursor.js';
import { ImprovementMarkDto } from './dto/improvement-mark.dto.js';
import type { ListImprovementMarksQueryDto } from './dto/list-improvement-marks-query.dto.js';
import { ImprovementMarksErrors } from './improvement-marks.errors.js';
import { ImprovementMarksRepository, type MarkOwnerScope } from './improvement-marks.repository.js';

const optionalDate = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

/** Reading marks: admins see every mark, a normal user the marks of their own runs. */
@Injectable()
export class ImprovementMarksService {
  constructor(private readonly marks: ImprovementMarksRepository) {}

  async list(
    viewer: AuthenticatedUser,
    query: ListImprovementMarksQueryDto,
  ): Promise<Page<ImprovementMarkDto>> {
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const filters = {
      agentSlug: query.agent_slug,
      userId: query.user_id,
      runId: query.run_id,
      since: optionalDate(query.since),
      until: optionalDate(query.until),
    };
    const rows = await this.marks.listVisiblePage(ownerScopeOf(viewer), filters, query.limit, after);
    return toPage(rows, query.limit, (mark) => ImprovementMarkDto.from(mark));
  }

  async get(viewer: AuthenticatedUser, id: string): Promise<ImprovementMarkDto> {
    const mark = await this.marks.findVisible(ownerScopeOf(viewer), id);
    if (mark === null) throw ImprovementMarksErrors.notFound();
    return ImprovementMarkDto.from(mark);
  }
}

function ownerScopeOf(viewer: AuthenticatedUser): MarkOwnerScope {
  return roleAtLeast(viewer.role, 'admin') ? null : viewer.id;
}
