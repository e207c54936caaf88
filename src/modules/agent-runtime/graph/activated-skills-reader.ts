import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres' with {
  'resolution-mode': 'import',
};
import pg from 'pg';
import { AppConfig } from '../../../config/app-config.js';

const SCHEMA = 'langgraph';

/**
 * The API side's read of a thread's graph state (`GET /api/threads/:id/state`): the skills activated in
 * its latest checkpoint. On a small pool of its own; it never builds the graph nor creates the tables
 * (before the first run of the deployment there is no checkpoint, so no activated skill). The saver's
 * package (and LangChain under it) is loaded at the first read, not when the API process starts.
 */
@Injectable()
export class ActivatedSkillsReader implements OnApplicationShutdown {
  private readonly pool: pg.Pool;
  private saver: Promise<PostgresSaver> | null = null;

  constructor(config: AppConfig) {
    this.pool = new pg.Pool({ connectionString: config.database.url.reveal(), max: 2 });
    this.pool.on('error', () => undefined);
  }

  private loadSaver(): Promise<PostgresSaver> {
    this.saver ??= import('@langchain/langgraph-checkpoint-postgres').then(
      ({ PostgresSaver }) => new PostgresSaver(this.pool, undefined, { schema: SCHEMA }),
    );
    return this.saver;
  }

  async of(threadId: string): Promise<string[]> {
    const exists = await this.pool.query<{ ok: boolean }>(
      `SELECT to_regclass('${SCHEMA}.checkpoints') IS NOT NULL AS ok`,
    );
    if (exists.rows[0]?.ok !== true) return [];
    const saver = await this.loadSaver();
    const tuple = await saver.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: '' } });
    const value = tuple?.checkpoint.channel_values.activatedSkills;
    return Array.isArray(value) ? value.filter((slug): slug is string => typeof slug === 'string') : [];
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
