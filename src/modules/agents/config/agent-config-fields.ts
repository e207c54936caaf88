import { roleAtLeast, type UserRole } from '../../../common/auth/user-role.js';
import { MAX_EXECUTION_STEPS_LIMIT, type ConfigField } from './agent-config.js';

export type ConfigFieldType = 'text' | 'string' | 'integer' | 'resources' | 'approval';

/**
 * What the edit form shows for one config field. `auth` limits who may change it, not who may read it:
 * a user who cannot edit a field still reads its saved value and runs with it.
 */
export interface ConfigFieldMetadata {
  field: ConfigField;
  name: string;
  description: string;
  type: ConfigFieldType;
  auth?: 'admin' | 'superadmin';
  minimum?: number;
  maximum?: number;
}

const resource = (field: ConfigField, name: string, description: string): ConfigFieldMetadata => ({
  field,
  name,
  description,
  type: 'resources',
});

export const CONFIG_FIELDS: readonly ConfigFieldMetadata[] = [
  {
    field: 'system_prompt',
    name: '系统提示词',
    description: 'Instructions the model receives first.',
    type: 'text',
  },
  {
    field: 'model',
    name: '模型',
    description: 'Chat model id; the deployment default when unset.',
    type: 'string',
  },
  {
    field: 'max_execution_steps',
    name: '最大执行步数',
    description: 'Upper bound on graph steps per run (recursion limit).',
    type: 'integer',
    auth: 'admin',
    minimum: 1,
    maximum: MAX_EXECUTION_STEPS_LIMIT,
  },
  resource('tools', '工具', 'Builtin tools; base tools are always present.'),
  resource('knowledges', '知识库', 'Knowledge bases the agent may search.'),
  resource('skills', 'Skills', 'Shared and builtin skills; personal skills are always merged in.'),
  resource('subagents', '子智能体', 'Subagents this agent may delegate to.'),
  resource('mcps', 'MCP 服务器', 'MCP servers loaded directly.'),
  resource('preload_skills', '预加载 Skills', 'Selected skills whose full instructions are loaded up front.'),
  {
    field: 'approval',
    name: '工具审批',
    description:
      'Which tool calls run at once, wait for a person to approve them, or are refused; the first matching rule decides.',
    type: 'approval',
  },
];

export function mayEditField(role: UserRole, metadata: ConfigFieldMetadata): boolean {
  return metadata.auth === undefined || roleAtLeast(role, metadata.auth);
}

/** The fields `role` may change. */
export function editableFields(role: UserRole): ConfigFieldMetadata[] {
  return CONFIG_FIELDS.filter((metadata) => mayEditField(role, metadata));
}
