import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository, type EntityManager } from 'typeorm';
import { isUniqueViolation } from '../../../database/unique-violation.js';
import { McpErrors } from '../mcp.errors.js';
import { McpServerEntity } from './mcp-server.entity.js';
import { readOnce } from '../../../common/read-once/index.js';

/** The builtin sync of concurrent starts (api and worker) is serialized on this advisory lock. */
const BUILTIN_SYNC_LOCK_KEY = 7_300_110_011;

export type McpServerChanges = Partial<
  Pick<
    McpServerEntity,
    | 'name'
    | 'description'
    | 'transport'
    | 'url'
    | 'headersSealed'
    | 'timeoutS'
    | 'sseReadTimeoutS'
    | 'tags'
    | 'icon'
    | 'enabled'
    | 'disabledTools'
    | 'updatedBy'
  >
>;

@Injectable()
export class McpServersRepository {
  constructor(@InjectRepository(McpServerEntity) private readonly rows: Repository<McpServerEntity>) {}

  /** Up to `count` servers in slug order (byte order, as keyset cursors compare) after `afterSlug`. */
  pageBySlug(options: {
    enabledOnly: boolean;
    afterSlug: string | null;
    count: number;
  }): Promise<McpServerEntity[]> {
    const query = this.rows.createQueryBuilder('m').orderBy('m.slug COLLATE "C"', 'ASC').limit(options.count);
    if (options.enabledOnly) query.andWhere('m.enabled');
    if (options.afterSlug !== null)
      query.andWhere('m.slug COLLATE "C" > :afterSlug', { afterSlug: options.afterSlug });
    return query.getMany();
  }

  /** Read once per read-once scope (a run's assembly: the agent's `mcps` field and the tool loader). */
  listEnabled(): Promise<McpServerEntity[]> {
    return readOnce('mcp_servers:enabled', () =>
      this.rows.find({ where: { enabled: true }, order: { slug: 'ASC' } }),
    );
  }

  findBySlug(slug: string): Promise<McpServerEntity | null> {
    return this.rows.findOneBy({ slug });
  }

  /** The switches of one server, read fresh (never from a read-once scope). */
  findSwitches(slug: string): Promise<Pick<McpServerEntity, 'enabled' | 'disabledTools'> | null> {
    return this.rows.findOne({ select: { enabled: true, disabledTools: true }, where: { slug } });
  }

  /** The servers among `slugs`, enabled or not. */
  findBySlugs(slugs: readonly string[]): Promise<McpServerEntity[]> {
    return slugs.length === 0 ? Promise.resolve([]) : this.rows.findBy({ slug: In([...slugs]) });
  }

  /** Enabled servers among `slugs`, in the order asked (from `listEnabled`: servers are few). */
  async findEnabledBySlugs(slugs: readonly string[]): Promise<McpServerEntity[]> {
    if (slugs.length === 0) return [];
    const bySlug = new Map((await this.listEnabled()).map((row) => [row.slug, row]));
    return slugs.flatMap((slug) => bySlug.get(slug) ?? []);
  }

  async insert(row: McpServerEntity): Promise<McpServerEntity> {
    try {
      await this.rows.insert(row);
    } catch (error) {
      if (isUniqueViolation(error, 'mcp_servers_slug_key')) throw McpErrors.slugTaken(row.slug);
      throw error;
    }
    return this.rows.findOneByOrFail({ id: row.id });
  }

  async update(id: string, changes: McpServerChanges): Promise<McpServerEntity> {
    await this.rows.update({ id }, changes);
    return this.rows.findOneByOrFail({ id });
  }

  /** Adds or removes one name of `disabled_tools` in one statement (concurrent toggles do not lose each other). */
  async setToolDisabled(id: string, tool: string, disabled: boolean, updatedBy: string): Promise<void> {
    const next = disabled
      ? `(SELECT coalesce(jsonb_agg(DISTINCT t ORDER BY t), '[]'::jsonb) FROM jsonb_array_elements_text(disabled_tools || jsonb_build_array($2::text)) t)`
      : `disabled_tools - $2::text`;
    await this.rows.query(
      `UPDATE mcp_servers SET disabled_tools = ${next}, updated_by = $3, updated_at = now() WHERE id = $1`,
      [id, tool, updatedBy],
    );
  }

  async delete(id: string): Promise<void> {
    await this.rows.delete({ id });
  }

  /** Runs `work` in one transaction holding the builtin-sync lock. */
  inBuiltinSync<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.rows.manager.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [BUILTIN_SYNC_LOCK_KEY]);
      return work(manager);
    });
  }
}
