// The improvement-marks module's front door: what other modules may use. Everything else is internal.
import { ImprovementMarkEntity } from './improvement-mark.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const IMPROVEMENT_MARKS_ENTITIES = [ImprovementMarkEntity];

export { ImprovementMarksModule } from './improvement-marks.module.js';
export { ImprovementMarksToolModule } from './improvement-marks-tool.module.js';
export { ImprovementMarksRetentionModule } from './retention/improvement-marks-retention.module.js';
export { ImprovementMarksRetention } from './retention/improvement-marks-retention.js';
