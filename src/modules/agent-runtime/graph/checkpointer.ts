import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import { AppConfig } from '../../../config/app-config.js';
import { ThreadsService } from '../../threads/index.js';
import { BatchedPostgresSaver } from './batched-postgres-saver.js';

const SCHEMA = 'langgraph';
/** Serializes `setup()` across processes starting together (its migrations are not concurrency-safe). */
const SETUP_LOCK_KEY = 7_310_042;
/** Checkpointed threads looked up per page when purging those of deleted threads. */
const PURGE_PAGE = 1_000;

/**
 * LangGraph's PostgreSQL checkpointer, on its own pool (sized for the worker's concurrency) and in its
 * own schema. The checkpoint thread of a run is its thread id.
 */
@Injectable()
export class Checkpointer implements OnModuleInit, OnApplicationShutdown {
  readonly pool: pg.Pool;
  readonly saver: BatchedPostgresSaver;
  private setup: Promise<void> | null = null;
  private readonly logger = new Logger(Checkpointer.name);

  constructor(
    config: AppConfig,
    private readonly threads: ThreadsService,
  ) {
    this.pool = new pg.Pool({
      connectionString: config.database.url.reveal(),
      // Connections are taken per statement (a run waiting on its model holds none), so the checkpoint
      // pool is sized like the main one, not by the runs in flight.
      max: config.database.poolSize,
      connectionTimeoutMillis: 10_000,
    });
    // An idle client losing its connection (PostgreSQL restarted) is emitted here; unheard, it would
    // crash the process. The pool drops that client and connects a new one on the next query.
    this.pool.on('error', (error) =>
      this.logger.warn({ err: error.message }, 'checkpointer connection lost'),
    );
    this.saver = new BatchedPostgresSaver(this.pool, SCHEMA);
  }

  async onModuleInit(): Promise<void> {
    await this.ready();
  }

  /** Creates the checkpoint tables once per process (the first caller runs it, others wait). */
  ready(): Promise<void> {
    this.setup ??= this.createTables();
    return this.setup;
  }

  private async createTables(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [SETUP_LOCK_KEY]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
      await this.saver.setup();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [SETUP_LOCK_KEY]).catch(() => undefined);
      client.release();
    }
  }

  /**
   * Deletes the checkpoints of threads that no longer exist (a deleted thread cascades to its runs,
   * events and messages, but checkpoints live in LangGraph's own tables). Returns the threads purged.
   * Off any run's path (the reconciler, every few minutes): a page of checkpointed threads read here,
   * then which of them are gone asked of the threads module, two statements per page.
   */
  async purgeDeletedThreads(): Promise<number> {
    await this.ready();
    let purged = 0;
    for (let after = ''; ;) {
      const { rows } = await this.pool.query<{ thread_id: string }>(
        `SELECT DISTINCT thread_id FROM ${SCHEMA}.checkpoints WHERE thread_id > $1 ORDER BY thread_id LIMIT $2`,
        [after, PURGE_PAGE],
      );
      const deleted = await this.threads.deletedAmong(rows.map((row) => row.thread_id));
      for (const threadId of deleted) await this.saver.deleteThread(threadId);
      purged += deleted.length;
      if (rows.length < PURGE_PAGE) return purged;
      after = rows[rows.length - 1].thread_id;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
