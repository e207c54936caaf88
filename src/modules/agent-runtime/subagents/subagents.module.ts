import { Module } from '@nestjs/common';
import { AgentsModule } from '../../agents/index.js';
import { ThreadsModule } from '../../threads/index.js';
import { ToolsModule } from '../../tools/index.js';
import { RunAssemblyPortsModule } from '../run-assembly-ports.module.js';
import { RunCreation } from '../runs/run-creation.js';
import { RunsCoreModule } from '../runs-core.module.js';
import { SubagentRuns } from './subagent-runs.js';
import { SubagentToolSource } from './subagent-tool-source.js';
import { SubagentTools } from './subagent.tools.js';

/**
 * The subagent tools, registered in both processes (catalog and execution) like `ask_user_question`,
 * and their tool source. Child runs are created as any run is (`RunCreation`: commit, then enqueue).
 */
@Module({
  imports: [RunsCoreModule, RunAssemblyPortsModule, ThreadsModule, AgentsModule, ToolsModule],
  providers: [RunCreation, SubagentRuns, SubagentTools, SubagentToolSource],
})
export class SubagentsModule {}
