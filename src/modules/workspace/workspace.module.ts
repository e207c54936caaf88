import { Module } from '@nestjs/common';
import { ToolsModule } from '../tools/index.js';
import { ConversationSummaries } from './conversation-summaries.js';
import { FileTools } from './files/file-tools.js';
import { LargeToolResults } from './large-tool-results.js';
import { SharedSkillReadPolicies } from './paths/shared-skill-read-policy.js';
import { WorkspacePathResolver } from './paths/workspace-path-resolver.js';
import { WorkspaceQuota } from './quota/workspace-quota.js';
import { WorkspaceUsageRepository } from './quota/workspace-usage.repository.js';
import { QuotaCountedUploadStorage } from './uploads/quota-counted-upload-storage.js';
import { WorkspacePathAuthorizer } from './workspace-path.authorizer.js';
import { WorkspaceOverlayApplier } from './overlay/overlay-applier.js';
import { WorkspaceService } from './workspace.service.js';

/**
 * Per-user storage under DATA_DIR as agents see it (virtual /home/gem paths) with its quota, the
 * workspace file tools, and the authorizer of workspace paths at the tool execution boundary.
 */
@Module({
  imports: [ToolsModule],
  providers: [
    SharedSkillReadPolicies,
    WorkspacePathResolver,
    WorkspacePathAuthorizer,
    WorkspaceService,
    WorkspaceUsageRepository,
    WorkspaceQuota,
    LargeToolResults,
    ConversationSummaries,
    FileTools,
    QuotaCountedUploadStorage,
    WorkspaceOverlayApplier,
  ],
  exports: [
    WorkspacePathResolver,
    WorkspaceService,
    WorkspaceQuota,
    LargeToolResults,
    ConversationSummaries,
    FileTools,
    SharedSkillReadPolicies,
    QuotaCountedUploadStorage,
    WorkspaceOverlayApplier,
  ],
})
export class WorkspaceModule {}
