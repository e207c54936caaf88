import type { ToolCaller } from '../../tools/execution/tool-execution-context.js';

/** Whose workspace: a tool caller or an authenticated HTTP user (both carry these fields). */
export type WorkspaceUser = Pick<ToolCaller, 'id' | 'role' | 'departmentId'>;
