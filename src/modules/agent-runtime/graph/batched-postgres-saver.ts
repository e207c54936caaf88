import type { RunnableConfig } from '@langchain/core/runnables';
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
  PendingWrite,
} from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type pg from 'pg';
import { preparedQuery } from '../../../database/prepared-query.js';
import type { CheckpointCompanion, CheckpointCompanions } from './checkpoint-companion.js';
import { CheckpointSql } from './checkpoint-sql.js';
import { MessageCachingSerializer } from './message-caching-serializer.js';
import {
  PendingCheckpointWrites,
  type MergedWrites,
  type WriteRow,
  type WritesTarget,
} from './pending-checkpoint-writes.js';

const bytes = (value: Uint8Array | undefined): Buffer | null =>
  value === undefined ? null : Buffer.from(value.buffer, value.byteOffset, value.byteLength);

/** The five arrays of `rows` for the unnest of a writes CTE. */
const columnsOf = (rows: readonly WriteRow[]) => [
  rows.map((row) => row.taskId),
  rows.map((row) => row.idx),
  rows.map((row) => row.channel),
  rows.map((row) => row.type),
  rows.map((row) => row.blob),
];
const writeParams = (writes: MergedWrites) => [...columnsOf(writes.inserts), ...columnsOf(writes.upserts)];

/**
 * LangGraph's PostgreSQL checkpointer with the same tables, rows and reads, but fewer statements: `put`
 * stores the new channel blobs, the checkpoint and the task writes of its parent in one INSERT (a
 * data-modifying CTE). The task writes of a step wait for that checkpoint (LangGraph saves them just
 * before it) and are stored alone, in one statement, when none follows by the next turn of the event
 * loop (an interrupt, an error). The library sends a transaction with one statement per row (BEGIN, n
 * blob INSERTs, the checkpoint, COMMIT): about 90 round trips for a run with three tool calls, where
 * this makes 9. A single statement is atomic, so no transaction is needed.
 *
 * A checkpoint also takes the companion waiting for its thread (`CheckpointCompanions`): what the step
 * before it recorded for the run goes out in the same statement, and the checkpoint is written only
 * under the companion's condition.
 *
 * Messages are serialized through `MessageCachingSerializer` (the same bytes, each message once).
 */
export class BatchedPostgresSaver extends PostgresSaver implements CheckpointCompanions {
  private readonly sql: CheckpointSql;
  private readonly pendingWrites = new PendingCheckpointWrites((target, writes) =>
    this.storeWrites(target, writes),
  );
  /** Per thread, the companion waiting for its next checkpoint. */
  private readonly companions = new Map<string, CheckpointCompanion>();

  constructor(
    private readonly writePool: pg.Pool,
    schema: string,
  ) {
    super(writePool, new MessageCachingSerializer(), { schema });
    this.sql = new CheckpointSql(schema);
  }

  attach(threadId: string, companion: CheckpointCompanion): boolean {
    if (this.companions.has(threadId)) return false;
    this.companions.set(threadId, companion);
    return true;
  }

  async storeDetached(threadId: string): Promise<void> {
    await this.takeCompanion(threadId)?.storeAlone();
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    if (config.configurable === undefined) throw new Error(`Missing "configurable" field in "config" param`);
    const {
      thread_id: threadId,
      checkpoint_ns: namespace = '',
      checkpoint_id: parentId,
    } = config.configurable as { thread_id: string; checkpoint_ns?: string; checkpoint_id?: string };
    const endPut = this.pendingWrites.beginPut({ threadId, namespace });
    let parentWrites: ReturnType<PendingCheckpointWrites['take']> = null;
    try {
      const blobs = await this._dumpBlobs(threadId, namespace, checkpoint.channel_values, newVersions);
      const serializedMetadata: unknown = await this._dumpMetadata(metadata);
      // Taken after the awaits above: writes saved meanwhile still go with this checkpoint.
      if (parentId !== undefined)
        parentWrites = this.pendingWrites.take({ threadId, namespace, checkpointId: parentId });
      const companion = namespace === '' ? this.takeCompanion(threadId) : null;
      const params: unknown[] = [
        threadId,
        namespace,
        checkpoint.id,
        parentId,
        this._dumpCheckpoint(checkpoint),
        serializedMetadata,
        blobs.map((blob) => blob[2]),
        blobs.map((blob) => blob[3]),
        blobs.map((blob) => blob[4]),
        blobs.map((blob) => bytes(blob[5])),
        ...writeParams(parentWrites?.writes ?? { inserts: [], upserts: [] }),
      ];
      if (companion === null) await preparedQuery(this.writePool, this.sql.put, params);
      else {
        const parts = companion.render((value) => `$${params.push(value)}`);
        companion.settle(await preparedQuery(this.writePool, this.sql.putWith(parts), params));
      }
    } catch (error) {
      parentWrites?.settle(error);
      throw error;
    } finally {
      endPut();
    }
    parentWrites?.settle();
    return { configurable: { thread_id: threadId, checkpoint_ns: namespace, checkpoint_id: checkpoint.id } };
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    const {
      thread_id: threadId,
      checkpoint_ns: namespace,
      checkpoint_id: checkpointId,
    } = (config.configurable ?? {}) as { thread_id: string; checkpoint_ns: string; checkpoint_id: string };
    const dumped = await this._dumpWrites(threadId, namespace, checkpointId, taskId, writes);
    if (dumped.length === 0) return;
    // Special channels have fixed negative indexes (WRITES_IDX_MAP); the others their position.
    const upsert = dumped.every((write) => write[4] < 0);
    const rows = dumped.map((write): WriteRow => ({
      taskId,
      idx: write[4],
      channel: write[5],
      type: write[6],
      blob: bytes(write[7]),
    }));
    return this.pendingWrites.add({ threadId, namespace, checkpointId }, rows, upsert);
  }

  private takeCompanion(threadId: string): CheckpointCompanion | null {
    const companion = this.companions.get(threadId);
    if (companion === undefined) return null;
    this.companions.delete(threadId);
    return companion;
  }

  private async storeWrites(target: WritesTarget, writes: MergedWrites): Promise<void> {
    await preparedQuery(this.writePool, this.sql.writes, [
      target.threadId,
      target.namespace,
      target.checkpointId,
      ...writeParams(writes),
    ]);
  }
}
