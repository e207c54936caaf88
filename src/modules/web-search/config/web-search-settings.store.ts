import { Injectable } from '@nestjs/common';
import type { FetchChoice, SearchChoice, VendorName } from '../web-search.types.js';

export interface StoredWebSearchSettings {
  searchProvider: SearchChoice;
  fetchProvider: FetchChoice;
  savedKeys: Partial<Record<VendorName, string>>;
}

/** The saved settings. Until the settings API stores any, the defaults: `auto`, no saved keys. */
@Injectable()
export class WebSearchSettingsStore {
  read(): Promise<StoredWebSearchSettings> {
    return Promise.resolve({ searchProvider: 'auto', fetchProvider: 'auto', savedKeys: {} });
  }
}
