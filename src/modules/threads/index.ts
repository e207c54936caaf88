// The threads module's front door: what other modules may use. Everything else is internal.
import { ThreadEntity } from './thread.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const THREADS_ENTITIES = [ThreadEntity];

export { ThreadsModule } from './threads.module.js';
export { ThreadsService, projectOf } from './threads.service.js';
export type { ThreadRef } from './threads.service.js';
export { ThreadsErrorCode } from './threads.errors.js';
export { ThreadDeletionChecks } from './deletion/thread-deletion-checks.js';
