import { Injectable } from '@nestjs/common';
import { RunAuthorization } from '../assembly/run-authorization.js';
import { RunContextPreparer, type PreparedRun } from '../assembly/run-context-preparer.js';
import { ToolAssembler, type AssembledTools } from '../assembly/tool-assembler.js';
import type { RunEntity } from '../runs/run.entity.js';
import { LeaseLostError } from '../runs/runs.errors.js';
import { RunStore } from '../runs/run-store.js';

/**
 * A run's config snapshot and the tools assembled from it: the frozen snapshot of a resumed run
 * (authorization re-checked), or a new one saved on the run while the tools are assembled from it.
 */
@Injectable()
export class RunSnapshotAndTools {
  constructor(
    private readonly store: RunStore,
    private readonly preparer: RunContextPreparer,
    private readonly authorization: RunAuthorization,
    private readonly assembler: ToolAssembler,
  ) {}

  async load(run: RunEntity, leaseToken: string): Promise<PreparedRun & { assembled: AssembledTools }> {
    if (run.configSnapshot !== null) {
      const { actor, agent } = await this.authorization.actorAndAgent(run);
      const snapshot = run.configSnapshot;
      return { actor, agent, snapshot, assembled: await this.assemble(run, { actor, snapshot }) };
    }
    const prepared = await this.preparer.prepare(run);
    const [saved, assembled] = await Promise.allSettled([
      this.store.saveSnapshot(run.id, leaseToken, prepared.snapshot),
      this.assemble(run, prepared),
    ]);
    if (saved.status === 'rejected') throw saved.reason;
    if (!saved.value) throw new LeaseLostError(run.id);
    if (assembled.status === 'rejected') throw assembled.reason;
    return { ...prepared, assembled: assembled.value };
  }

  private assemble(
    run: RunEntity,
    { actor, snapshot }: Pick<PreparedRun, 'actor' | 'snapshot'>,
  ): Promise<AssembledTools> {
    return this.assembler.assemble({ runId: run.id, threadId: run.threadId, actor, snapshot });
  }
}
