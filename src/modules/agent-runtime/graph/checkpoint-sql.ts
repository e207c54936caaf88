import type { CompanionSql } from './checkpoint-companion.js';

/**
 * The statements of `BatchedPostgresSaver` for one schema. A checkpoint `put` binds $1-$6 (thread,
 * namespace, checkpoint id, parent id, checkpoint, metadata), $7-$10 (the channel blobs' columns) and
 * $11-$20 (the parent's task writes: inserted, then upserted); a companion binds after those.
 */
export class CheckpointSql {
  readonly put: string;
  /** A task's writes stored alone: $1 thread, $2 namespace, $3 checkpoint id, then the two batches. */
  readonly writes: string;

  constructor(private readonly schema: string) {
    this.put = this.putStatement(null);
    // Data-modifying CTEs run whether or not the main query reads them.
    this.writes = `WITH ${this.writesCtes(1, 3, 4, '')} SELECT 1`;
  }

  /** `put` with `companion`'s CTEs first: every row of the checkpoint is written only if it holds. */
  putWith(companion: CompanionSql): string {
    return this.putStatement(companion);
  }

  private table(name: string): string {
    return `"${this.schema}".${name}`;
  }

  private putStatement(companion: CompanionSql | null): string {
    const where = companion === null ? '' : `WHERE ${companion.holds}`;
    const blobs = `blobs AS (
          INSERT INTO ${this.table('checkpoint_blobs')} (thread_id, checkpoint_ns, channel, version, type, blob)
          SELECT $1, $2, b.channel, b.version, b.type, b.blob
            FROM unnest($7::text[], $8::text[], $9::text[], $10::bytea[]) AS b(channel, version, type, blob)
          ${where}
          ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING
        ), ${this.writesCtes(1, 4, 11, where)}`;
    const insert = `INSERT INTO ${this.table('checkpoints')}
          (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)`;
    const onConflict = `ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
        DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata`;
    if (companion === null)
      return `WITH ${blobs}
        ${insert}
        VALUES ($1, $2, $3, $4, $5, $6)
        ${onConflict}`;
    return `WITH ${companion.ctes}, ${blobs},
        checkpoint AS (${insert}
          SELECT $1::text, $2::text, $3::text, $4::text, $5::jsonb, $6::jsonb ${where}
          ${onConflict})
        ${companion.rows}`;
  }

  /** Writes of special channels only (errors, interrupts…) replace earlier ones, as in the library. */
  private writesCtes(threadParam: number, checkpointParam: number, first: number, where: string): string {
    const insert = (from: number) => `INSERT INTO ${this.table('checkpoint_writes')}
          (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob)
        SELECT $${threadParam}, $${threadParam + 1}, $${checkpointParam}, w.task_id, w.idx, w.channel, w.type, w.blob
          FROM unnest($${from}::text[], $${from + 1}::int[], $${from + 2}::text[], $${from + 3}::text[],
                      $${from + 4}::bytea[]) AS w(task_id, idx, channel, type, blob)
        ${where}
        ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)`;
    return `inserted_writes AS (${insert(first)} DO NOTHING),
        upserted_writes AS (${insert(first + 5)} DO UPDATE SET
          channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob)`;
  }
}
