import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SecretBox, SecretBoxError } from '../../../common/crypto/secret-box.js';
import { WebSearchSettingsEntity } from '../settings/web-search-settings.entity.js';
import type { FetchChoice, SearchChoice, VendorName } from '../web-search.types.js';
import { VENDORS } from '../web-search.types.js';
import { readOnce } from '../../../common/read-once/index.js';

export interface StoredWebSearchSettings {
  searchProvider: SearchChoice;
  fetchProvider: FetchChoice;
  /** Decrypted saved keys; a vendor without one is absent. */
  savedKeys: Partial<Record<VendorName, string>>;
}

/** What a save changes: absent fields stay, a `null` key clears the saved key. */
export interface WebSearchSettingsChange {
  searchProvider?: SearchChoice;
  fetchProvider?: FetchChoice;
  apiKeys?: Partial<Record<VendorName, string | null>>;
}

const TABLE = 'web_search_settings';
const ROW_ID = 'global';
const COLUMNS = {
  tavily: { property: 'tavilyApiKey', column: 'tavily_api_key' },
  deepseek: { property: 'deepseekApiKey', column: 'deepseek_api_key' },
  doubao: { property: 'doubaoApiKey', column: 'doubao_api_key' },
} as const satisfies Record<VendorName, { property: keyof WebSearchSettingsEntity; column: string }>;

const secretContext = (vendor: VendorName) => ({
  table: TABLE,
  rowId: ROW_ID,
  column: COLUMNS[vendor].column,
});

/** The saved settings row, keys sealed with `SecretBox` (AAD = table, row, column). */
@Injectable()
export class WebSearchSettingsStore {
  private readonly logger = new Logger(WebSearchSettingsStore.name);

  constructor(
    @InjectRepository(WebSearchSettingsEntity) private readonly rows: Repository<WebSearchSettingsEntity>,
    private readonly secrets: SecretBox,
  ) {}

  /** Read once per read-once scope (a run's assembly checks both web tools' availability). */
  read(): Promise<StoredWebSearchSettings> {
    return readOnce('web_search_settings', () => this.readRow());
  }

  private async readRow(): Promise<StoredWebSearchSettings> {
    const row = await this.rows.findOneBy({ id: ROW_ID });
    if (row === null) return { searchProvider: 'auto', fetchProvider: 'auto', savedKeys: {} };
    const savedKeys: Partial<Record<VendorName, string>> = {};
    for (const vendor of VENDORS) {
      const sealed = row[COLUMNS[vendor].property];
      if (sealed === null) continue;
      try {
        savedKeys[vendor] = this.secrets.decrypt(sealed, secretContext(vendor));
      } catch (error) {
        if (!(error instanceof SecretBoxError)) throw error;
        // Never fatal for the tools: the key counts as not saved, so the environment's applies.
        this.logger.warn({ vendor, reason: error.message }, 'saved web search key cannot be decrypted');
      }
    }
    return {
      searchProvider: row.searchProvider as SearchChoice,
      fetchProvider: row.fetchProvider as FetchChoice,
      savedKeys,
    };
  }

  /** Applies a change under a row lock, so two saves never lose each other's fields. */
  async update(change: WebSearchSettingsChange, actorId: string): Promise<void> {
    await this.rows.manager.transaction(async (manager) => {
      const repo = manager.getRepository(WebSearchSettingsEntity);
      await repo
        .createQueryBuilder()
        .insert()
        .values({
          id: ROW_ID,
          searchProvider: 'auto',
          fetchProvider: 'auto',
          tavilyApiKey: null,
          deepseekApiKey: null,
          doubaoApiKey: null,
          updatedAt: new Date(),
          updatedBy: null,
        })
        .orIgnore()
        .execute();
      const row = await repo.findOneOrFail({ where: { id: ROW_ID }, lock: { mode: 'pessimistic_write' } });
      if (change.searchProvider !== undefined) row.searchProvider = change.searchProvider;
      if (change.fetchProvider !== undefined) row.fetchProvider = change.fetchProvider;
      for (const vendor of VENDORS) {
        const key = change.apiKeys?.[vendor];
        if (key === undefined) continue;
        row[COLUMNS[vendor].property] =
          key === null ? null : this.secrets.encrypt(key, secretContext(vendor));
      }
      row.updatedAt = new Date();
      row.updatedBy = actorId;
      await repo.save(row);
    });
  }
}
