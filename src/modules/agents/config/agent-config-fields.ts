import { roleAtLeast, type UserRole } from '../../../common/auth/user-role.js';
import { MAX_EXECUTION_STEPS_LIMIT, type ConfigField } from './agent-config.js';

export type ConfigFieldType = 'text' | 'string' | 'integer' | 'resources' | 'approval';

/** The languages the edit form is described in; English unless the caller prefers Chinese. */
export type FormLanguage = 'en' | 'zh-CN';

type Localized = Record<FormLanguage, string>;

/**
 * What the edit form shows for one config field. `auth` limits who may change it, not who may read it:
 * a user who cannot edit a field still reads its saved value and runs with it.
 */
export interface ConfigFieldMetadata {
  field: ConfigField;
  name: Localized;
  description: Localized;
  type: ConfigFieldType;
  auth?: 'admin' | 'superadmin';
  minimum?: number;
  maximum?: number;
}

const resource = (field: ConfigField, name: Localized, description: Localized): ConfigFieldMetadata => ({
  field,
  name,
  description,
  type: 'resources',
});

export const CONFIG_FIELDS: readonly ConfigFieldMetadata[] = [
  {
    field: 'system_prompt',
    name: { en: 'System prompt', 'zh-CN': '系统提示词' },
    description: { en: 'Instructions the model receives first.', 'zh-CN': '模型最先收到的指令。' },
    type: 'text',
  },
  {
    field: 'model',
    name: { en: 'Model', 'zh-CN': '模型' },
    description: {
      en: 'Chat model id; the deployment default when unset.',
      'zh-CN': '对话模型 ID；留空时使用部署的默认模型。',
    },
    type: 'string',
  },
  {
    field: 'max_execution_steps',
    name: { en: 'Maximum execution steps', 'zh-CN': '最大执行步数' },
    description: {
      en: 'Upper bound on graph steps per run (recursion limit).',
      'zh-CN': '每次运行的图执行步数上限（递归限制）。',
    },
    type: 'integer',
    auth: 'admin',
    minimum: 1,
    maximum: MAX_EXECUTION_STEPS_LIMIT,
  },
  resource(
    'tools',
    { en: 'Tools', 'zh-CN': '工具' },
    { en: 'Builtin tools; base tools are always present.', 'zh-CN': '内置工具；基础工具始终可用。' },
  ),
  resource(
    'knowledges',
    { en: 'Knowledge bases', 'zh-CN': '知识库' },
    { en: 'Knowledge bases the agent may search.', 'zh-CN': '智能体可以检索的知识库。' },
  ),
  resource(
    'skills',
    { en: 'Skills', 'zh-CN': 'Skills' },
    {
      en: 'Shared and builtin skills; personal skills are always merged in.',
      'zh-CN': '共享和内置 Skill；个人 Skill 始终自动合并。',
    },
  ),
  resource(
    'subagents',
    { en: 'Subagents', 'zh-CN': '子智能体' },
    { en: 'Subagents this agent may delegate to.', 'zh-CN': '此智能体可以委派任务的子智能体。' },
  ),
  resource(
    'mcps',
    { en: 'MCP servers', 'zh-CN': 'MCP 服务器' },
    { en: 'MCP servers loaded directly.', 'zh-CN': '直接加载的 MCP 服务器。' },
  ),
  resource(
    'preload_skills',
    { en: 'Preloaded skills', 'zh-CN': '预加载 Skills' },
    {
      en: 'Selected skills whose full instructions are loaded up front.',
      'zh-CN': '在运行开始时即加载完整说明的已选 Skill。',
    },
  ),
  {
    field: 'approval',
    name: { en: 'Tool approval', 'zh-CN': '工具审批' },
    description: {
      en: 'Which tool calls run at once, wait for a person to approve them, or are refused; the first matching rule decides.',
      'zh-CN': '哪些工具调用直接执行、等待人工批准或被拒绝；由第一条匹配的规则决定。',
    },
    type: 'approval',
  },
];

/** The form language an `Accept-Language` header asks for: Chinese when it comes before English. */
export function formLanguageOf(acceptLanguage: string | undefined): FormLanguage {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0].trim().toLowerCase();
    if (tag.startsWith('zh')) return 'zh-CN';
    if (tag.startsWith('en')) return 'en';
  }
  return 'en';
}

export function mayEditField(role: UserRole, metadata: ConfigFieldMetadata): boolean {
  return metadata.auth === undefined || roleAtLeast(role, metadata.auth);
}

/** The fields `role` may change. */
export function editableFields(role: UserRole): ConfigFieldMetadata[] {
  return CONFIG_FIELDS.filter((metadata) => mayEditField(role, metadata));
}
