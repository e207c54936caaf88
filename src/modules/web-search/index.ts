// The web search module's front door: what other modules may use. Everything else is internal.
export { WebSearchModule } from './web-search.module.js';
export { WebSearchErrorCodes } from './web-search.errors.js';
