import { SetMetadata } from '@nestjs/common';
import type { z } from 'zod';
import type { AgentToolOptions } from './tool-metadata.js';
import type { ToolInvocation, ToolOutput } from '../execution/tool-execution-context.js';

export const AGENT_TOOL = 'tools:agent-tool';

/**
 * Registers the decorated provider method as an agent tool when the application boots (Nest
 * discovery). The method receives the validated arguments and the invocation:
 *
 *   @AgentTool({ name: 'ls', category: 'builtin', tags: ['文件'], displayName: '列目录', description, schema })
 *   async ls(args: z.infer<typeof schema>, invocation: ToolInvocation): Promise<ToolOutput> { … }
 */
export const AgentTool = <S extends z.ZodType>(options: AgentToolOptions<S>) =>
  SetMetadata(AGENT_TOOL, options);

export type AgentToolMethod<S extends z.ZodType> = (
  args: z.infer<S>,
  invocation: ToolInvocation,
) => Promise<ToolOutput>;
