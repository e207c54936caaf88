import { Injectable } from '@nestjs/common';
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
}
