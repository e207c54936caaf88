import { Module } from '@nestjs/common';
import { RunToolSources } from './assembly/run-tool-sources.js';
import { RunSkills } from './assembly/run-skills.js';
import { ToolVisibility } from './assembly/tool-visibility.js';

/** Where the Skills and MCP modules plug into run assembly (tool sources, per-call visibility). */
@Module({
  providers: [RunToolSources, ToolVisibility, RunSkills],
  exports: [RunToolSources, ToolVisibility, RunSkills],
})
export class RunAssemblyPortsModule {}
