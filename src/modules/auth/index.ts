// The auth module's front door: what other modules may use. Everything else is internal.
import { ApiKeyTombstoneEntity } from './api-keys/api-key-tombstone.entity.js';
import { ApiKeyEntity } from './api-keys/api-key.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const AUTH_ENTITIES = [ApiKeyEntity, ApiKeyTombstoneEntity];

export { AuthModule } from './auth.module.js';
export { ApiKeyRetentionModule } from './api-keys/api-key-retention.module.js';
export { ApiKeyRetention } from './api-keys/api-key-retention.js';
