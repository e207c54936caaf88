// The workspace module's front door: what other modules may use. Everything else is internal.
import { WorkspaceUsageEntity } from './quota/workspace-usage.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const WORKSPACE_ENTITIES = [WorkspaceUsageEntity];

export { WorkspaceModule } from './workspace.module.js';
export { WorkspaceService } from './workspace.service.js';
export { ConversationSummaries } from './conversation-summaries.js';
export { WorkspaceErrorCode, WorkspaceErrors } from './workspace.errors.js';
export { WorkspacePathResolver } from './paths/workspace-path-resolver.js';
export type { ResolvedWorkspacePath } from './paths/workspace-path-resolver.js';
export { WorkspaceQuota } from './quota/workspace-quota.js';
export { WorkspaceOverlayApplier } from './overlay/overlay-applier.js';
export {
  isInternalWorkspacePath,
  PERSONAL_SKILLS_ROOT,
  SHARED_SKILLS_ROOT,
  workdirVirtualPath,
} from './paths/virtual-paths.js';
export { uploadTempDir } from './paths/upload-temp-dir.js';
export { QuotaCountedUploadStorage } from './uploads/quota-counted-upload-storage.js';
export { sanitizeUploadFilename } from './upload-filename.js';
export { SharedSkillReadPolicies } from './paths/shared-skill-read-policy.js';
export type { WorkspaceUser } from './paths/workspace-user.js';
