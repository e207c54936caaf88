import type { ToolCaller } from '../../tools/index.js';

/** Whose workspace: a tool caller or an authenticated HTTP user (both carry these fields). */
export type WorkspaceUser = Pick<ToolCaller, 'id' | 'role' | 'departmentId'>;
