import { Injectable } from '@nestjs/common';
import type { OfferedTool } from './run-tool-sources.js';
import type { RunConfigSnapshot } from './run-config-snapshot.js';

export interface VisibilityContext {
  runId: string;
  threadId: string;
  snapshot: RunConfigSnapshot;
  /** Skills the model activated by reading their SKILL.md (graph state). */
  activatedSkills: ReadonlySet<string>;
}

/**
 * Step 3 of assembly, per model call: which executable tools the model sees now. The Skills module
 * registers a policy that hides tools only skills need until the skill is preloaded or activated.
 */
export interface ToolVisibilityPolicy {
  visible(context: VisibilityContext, executable: readonly OfferedTool[]): Promise<OfferedTool[]>;
}

@Injectable()
export class ToolVisibility {
  private readonly policies: ToolVisibilityPolicy[] = [];

  register(policy: ToolVisibilityPolicy): void {
    this.policies.push(policy);
  }

  async visible(context: VisibilityContext, executable: readonly OfferedTool[]): Promise<OfferedTool[]> {
    let tools = [...executable];
    for (const policy of this.policies) tools = await policy.visible(context, tools);
    return tools;
  }
}
