// The web search module's front door: what other modules may use. Everything else is internal.
import { WebSearchSettingsEntity } from './settings/web-search-settings.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const WEB_SEARCH_ENTITIES = [WebSearchSettingsEntity];

export { WebSearchModule } from './web-search.module.js';
