import { Module } from '@nestjs/common';
import { ToolsModule } from '../tools/index.js';
import { WorkspaceModule } from '../workspace/index.js';
import { BubblewrapSandbox } from './bubblewrap/bubblewrap-sandbox.js';
import { ExecuteTool } from './execute.tool.js';
import { Sandbox } from './sandbox.port.js';
import { SandboxSlots } from './sandbox-slots.js';

/** Sandboxed command execution: the `execute` tool on the bubblewrap backend of this host. */
@Module({
  imports: [ToolsModule, WorkspaceModule],
  providers: [{ provide: Sandbox, useClass: BubblewrapSandbox }, SandboxSlots, ExecuteTool],
})
export class SandboxModule {}
