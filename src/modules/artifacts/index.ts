// The artifacts module's front door: what other modules may use. Everything else is internal.
import { ThreadArtifactEntity } from './thread-artifact.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const ARTIFACTS_ENTITIES = [ThreadArtifactEntity];

export { ArtifactsModule } from './artifacts.module.js';
export { ArtifactsService } from './artifacts.service.js';
