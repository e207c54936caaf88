import { Injectable } from '@nestjs/common';
import { CommonErrors } from '../../common/errors/index.js';
import { decodeKeyCursor, pageByKey } from '../../common/pagination/key-cursor.js';
import type { Page } from '../../common/pagination/cursor.js';
import { ThreadArtifactsRepository } from './thread-artifacts.repository.js';

/** One presented file of a thread. */
export interface ThreadArtifact {
  path: string;
  runId: string;
  createdAt: Date;
}

/** What other modules may ask about artifacts (they never read `thread_artifacts`). */
@Injectable()
export class ArtifactsService {
  constructor(private readonly artifacts: ThreadArtifactsRepository) {}

  /** The thread's artifacts in presentation order; only the owner's rows. */
  async listForThread(threadId: string, userId: string): Promise<ThreadArtifact[]> {
    const rows = await this.artifacts.listForThread(threadId, userId);
    return rows.map((row) => ({ path: row.path, runId: row.runId, createdAt: row.createdAt }));
  }

  /** A page of `listForThread`, keyed by presentation position. */
  async pageForThread(
    threadId: string,
    userId: string,
    query: { limit: number; cursor?: string },
  ): Promise<Page<ThreadArtifact>> {
    const after = query.cursor === undefined ? null : positionOf(decodeKeyCursor(query.cursor, 1)[0]);
    const rows = await this.artifacts.pageForThread(threadId, userId, after, query.limit + 1);
    // Zero-padded, so the positions compare as the keys do.
    const keyOf = (row: { position: number }) => [String(row.position).padStart(10, '0')];
    return pageByKey(
      rows,
      query,
      keyOf,
      (row) => ({ path: row.path, runId: row.runId, createdAt: row.createdAt }),
      1,
    );
  }
}

function positionOf(key: string): number {
  if (!/^\d{1,10}$/.test(key)) {
    throw CommonErrors.validationFailed([{ field: 'cursor', messages: ['cursor is not valid'] }]);
  }
  return Number(key);
}
