import { api } from './client';
import type {
  Agent,
  AgentChanges,
  AgentDetail,
  AgentSummary,
  Schedule,
  ScheduleFields,
  ScheduleOccurrence,
  ApiKey,
  CreatedApiKey,
  Department,
  DirectoryUser,
  ManagedUser,
  Role,
  ConfirmedSkillDraft,
  ShareConfig,
  Skill,
  SkillDependencies,
  SkillDraft,
  SkillFile,
  SkillSummary,
  SkillTree,
  ImprovementMark,
  KbFile,
  KbHit,
  KnowledgeBase,
  McpServer,
  McpServerChanges,
  McpTestResult,
  McpTool,
  NewMcpServer,
  Tool,
  UsageGroup,
  UsageRow,
  Answers,
  Artifact,
  Decision,
  Page,
  Run,
  RunCreated,
  Thread,
  ThreadMessage,
  ThreadState,
  ThreadUsage,
  TokenAnswer,
  User,
  WaitingPoint,
  KnowledgeSettings,
  SkillsSettings,
  WebSearchSettings,
  WebSearchSettingsChanges,
  WebSearchTest,
  WebSearchTestResult,
} from './types';

const id = (value: string) => encodeURIComponent(value);

/**
 * Every API route the console calls, in one place. `test/unit/console/console-routes.spec.ts` checks
 * each of them against the service's OpenAPI document.
 */
export const routes = {
  signIn: (username: string, password: string) =>
    api.post<TokenAnswer>('/api/auth/token', { username, password }),
  me: () => api.get<User>('/api/auth/me'),
  agents: () => api.get<Page<Agent>>('/api/agents', { limit: 200 }),
  agentList: (cursor?: string) =>
    api.get<Page<AgentSummary>>('/api/agents', { include_subagents: true, limit: 200, cursor }),
  agent: (slug: string) => api.get<AgentDetail>(`/api/agents/${id(slug)}`),
  createAgent: (body: { name: string; slug?: string; description?: string; is_subagent?: boolean }) =>
    api.post<AgentDetail>('/api/agents', body),
  updateAgent: (slug: string, changes: AgentChanges) =>
    api.patch<AgentDetail>(`/api/agents/${id(slug)}`, changes),
  deleteAgent: (slug: string) => api.delete(`/api/agents/${id(slug)}`),
  agentSchedules: (slug: string) =>
    api.get<Page<Schedule>>('/api/schedules', { agent_slug: slug, limit: 200 }),
  createSchedule: (slug: string, fields: ScheduleFields, requestId: string) =>
    api.post<Schedule>(`/api/agents/${id(slug)}/schedules`, { ...fields, request_id: requestId }),
  updateSchedule: (scheduleId: string, fields: Partial<ScheduleFields>) =>
    api.patch<Schedule>(`/api/schedules/${id(scheduleId)}`, fields),
  deleteSchedule: (scheduleId: string) => api.delete(`/api/schedules/${id(scheduleId)}`),
  runSchedule: (scheduleId: string, requestId: string) =>
    api.post<{ occurrence_id: string; run_id: string; thread_id: string }>(
      `/api/schedules/${id(scheduleId)}/run`,
      { request_id: requestId },
    ),
  occurrences: (scheduleId: string) =>
    api.get<Page<ScheduleOccurrence>>(`/api/schedules/${id(scheduleId)}/occurrences`, { limit: 20 }),
  threads: (cursor?: string) => api.get<Page<Thread>>('/api/threads', { limit: 50, cursor }),
  createThread: (agentSlug: string, title: string) =>
    api.post<Thread>('/api/threads', { agent_slug: agentSlug, title }),
  thread: (threadId: string) => api.get<Thread>(`/api/threads/${id(threadId)}`),
  renameThread: (threadId: string, title: string) =>
    api.patch<Thread>(`/api/threads/${id(threadId)}`, { title }),
  deleteThread: (threadId: string) => api.delete(`/api/threads/${id(threadId)}`),
  messages: (threadId: string, cursor?: string) =>
    api.get<Page<ThreadMessage>>(`/api/threads/${id(threadId)}/messages`, { limit: 200, cursor }),
  threadState: (threadId: string) => api.get<ThreadState>(`/api/threads/${id(threadId)}/state`),
  threadUsage: (threadId: string) => api.get<ThreadUsage>(`/api/threads/${id(threadId)}/usage`),
  artifacts: (threadId: string) =>
    api.get<Page<Artifact>>(`/api/threads/${id(threadId)}/artifacts`, { limit: 200 }),
  upload: (threadId: string, file: File) =>
    api.upload<{ path: string }>(`/api/threads/${id(threadId)}/files`, file),
  download: (threadId: string, path: string) => api.fetchRaw(`/api/threads/${id(threadId)}/files`, { path }),
  startRun: (threadId: string, input: string, requestId: string) =>
    api.post<RunCreated>(`/api/threads/${id(threadId)}/runs`, { input, request_id: requestId }),
  run: (runId: string) => api.get<Run>(`/api/runs/${id(runId)}`),
  runEventsPath: (runId: string) => `/api/runs/${id(runId)}/events`,
  cancelRun: (runId: string) => api.post<Run>(`/api/runs/${id(runId)}/cancel`),
  waitingPoint: (runId: string) => api.get<WaitingPoint>(`/api/runs/${id(runId)}/waiting-point`),
  answer: (runId: string, answers: Answers, requestId: string) =>
    api.post<WaitingPoint>(`/api/runs/${id(runId)}/answers`, { answers, request_id: requestId }),
  tools: () => api.get<{ items: Tool[] }>('/api/system/tools'),
  apiKeys: (cursor?: string) => api.get<Page<ApiKey>>('/api/api-keys', { limit: 200, cursor }),
  createApiKey: (name: string, expiresAt: string | null, requestId: string) =>
    api.post<CreatedApiKey>('/api/api-keys', {
      name,
      ...(expiresAt ? { expires_at: expiresAt } : {}),
      request_id: requestId,
    }),
  revokeApiKey: (keyId: string) => api.delete(`/api/api-keys/${id(keyId)}`),
  users: (cursor?: string) => api.get<Page<ManagedUser>>('/api/users', { limit: 200, cursor }),
  createUser: (body: { username: string; password: string; role: Role; department_id?: string }) =>
    api.post<ManagedUser>('/api/users', body),
  updateUser: (userId: string, body: { disabled?: boolean; role?: Role; department_id?: string }) =>
    api.patch<ManagedUser>(`/api/users/${id(userId)}`, body),
  departments: () => api.get<Page<Department>>('/api/departments', { limit: 200 }),
  createDepartment: (body: { name: string; description?: string }) =>
    api.post<Department>('/api/departments', body),
  findUsers: (filter: { q?: string; ids?: string[] }) =>
    api.get<{ items: DirectoryUser[] }>('/api/users/directory', { q: filter.q, ids: filter.ids?.join(',') }),
  usage: (groupBy: UsageGroup, since: string, cursor?: string) =>
    api.get<Page<UsageRow>>('/api/usage', { group_by: groupBy, since, limit: 200, cursor }),
  marks: (filters: { agent_slug?: string; since?: string }, cursor?: string) =>
    api.get<Page<ImprovementMark>>('/api/improvement-marks', { ...filters, limit: 50, cursor }),
  skills: (cursor?: string) => api.get<Page<SkillSummary>>('/api/skills', { limit: 200, cursor }),
  skill: (slug: string) => api.get<Skill>(`/api/skills/${id(slug)}`),
  skillTree: (slug: string) => api.get<SkillTree>(`/api/skills/${id(slug)}/tree`),
  skillFile: (slug: string, path: string) => api.get<SkillFile>(`/api/skills/${id(slug)}/files`, { path }),
  saveSkillFile: (slug: string, file: SkillFile) => api.put<SkillFile>(`/api/skills/${id(slug)}/files`, file),
  createSkillFile: (slug: string, path: string, content: string) =>
    api.post<SkillFile>(`/api/skills/${id(slug)}/files`, { path, content }),
  deleteSkillFile: (slug: string, path: string) => api.delete(`/api/skills/${id(slug)}/files`, { path }),
  setSkillDependencies: (slug: string, deps: SkillDependencies) =>
    api.put<Skill>(`/api/skills/${id(slug)}/dependencies`, deps),
  setSkillShareConfig: (slug: string, config: ShareConfig) =>
    api.put<Skill>(`/api/skills/${id(slug)}/share-config`, config),
  setSkillEnabled: (slug: string, enabled: boolean) =>
    api.put<Skill>(`/api/skills/${id(slug)}/enabled`, { enabled }),
  exportSkill: (slug: string) => api.fetchRaw(`/api/skills/${id(slug)}/export`),
  deleteSharedSkill: (slug: string) => api.delete(`/api/skills/${id(slug)}`),
  deletePersonalSkill: (slug: string) => api.delete(`/api/skills/personal/${id(slug)}`),
  uploadSkillDraft: (file: File) => api.upload<SkillDraft>('/api/skills/drafts', file),
  remoteSkillDraft: (source: string, skillNames: string[]) =>
    api.post<SkillDraft>('/api/skills/drafts/remote', { source, skill_names: skillNames }),
  confirmSkillDraft: (
    draftId: string,
    body: { target: 'personal' | 'shared'; slugs?: string[]; share_config?: ShareConfig },
  ) => api.post<ConfirmedSkillDraft>(`/api/skills/drafts/${id(draftId)}/confirm`, body),
  discardSkillDraft: (draftId: string) => api.delete(`/api/skills/drafts/${id(draftId)}`),
  decide: (runId: string, decisions: Record<string, Decision>, requestId: string) =>
    api.post<WaitingPoint>(`/api/runs/${id(runId)}/approvals`, { decisions, request_id: requestId }),
  knowledgeBases: (cursor?: string) =>
    api.get<Page<KnowledgeBase>>('/api/knowledge-bases', { limit: 200, cursor }),
  knowledgeBase: (kbId: string) => api.get<KnowledgeBase>(`/api/knowledge-bases/${id(kbId)}`),
  createKnowledgeBase: (body: { name: string; description?: string; share_config?: ShareConfig }) =>
    api.post<KnowledgeBase>('/api/knowledge-bases', body),
  updateKnowledgeBase: (
    kbId: string,
    body: { name?: string; description?: string; share_config?: ShareConfig },
  ) => api.patch<KnowledgeBase>(`/api/knowledge-bases/${id(kbId)}`, body),
  deleteKnowledgeBase: (kbId: string) => api.delete(`/api/knowledge-bases/${id(kbId)}`),
  kbFiles: (kbId: string, cursor?: string) =>
    api.get<Page<KbFile>>(`/api/knowledge-bases/${id(kbId)}/files`, { limit: 200, cursor }),
  kbFile: (kbId: string, fileId: string) =>
    api.get<KbFile>(`/api/knowledge-bases/${id(kbId)}/files/${id(fileId)}`),
  uploadKbFile: (kbId: string, file: File) =>
    api.upload<KbFile>(`/api/knowledge-bases/${id(kbId)}/files`, file),
  deleteKbFile: (kbId: string, fileId: string) =>
    api.delete(`/api/knowledge-bases/${id(kbId)}/files/${id(fileId)}`),
  queryKb: (kbId: string, body: { query: string; top_k?: number; file_name?: string }) =>
    api.post<{ items: KbHit[] }>(`/api/knowledge-bases/${id(kbId)}/query`, body),
  mcpServers: (cursor?: string) =>
    api.get<Page<McpServer>>('/api/system/mcp-servers', { limit: 200, cursor }),
  mcpServer: (slug: string) => api.get<McpServer>(`/api/system/mcp-servers/${id(slug)}`),
  createMcpServer: (body: NewMcpServer) => api.post<McpServer>('/api/system/mcp-servers', body),
  updateMcpServer: (slug: string, changes: McpServerChanges) =>
    api.patch<McpServer>(`/api/system/mcp-servers/${id(slug)}`, changes),
  deleteMcpServer: (slug: string) => api.delete(`/api/system/mcp-servers/${id(slug)}`),
  setMcpServerEnabled: (slug: string, enabled: boolean) =>
    api.put<McpServer>(`/api/system/mcp-servers/${id(slug)}/status`, { enabled }),
  testMcpServer: (slug: string) => api.post<McpTestResult>(`/api/system/mcp-servers/${id(slug)}/test`),
  mcpServerTools: (slug: string, cursor?: string) =>
    api.get<Page<McpTool>>(`/api/system/mcp-servers/${id(slug)}/tools`, { limit: 200, cursor }),
  setMcpToolEnabled: (slug: string, tool: string, enabled: boolean) =>
    api.put<void>(`/api/system/mcp-servers/${id(slug)}/tools/${id(tool)}/status`, { enabled }),
  webSearchSettings: () => api.get<WebSearchSettings>('/api/system/settings/web-search'),
  saveWebSearchSettings: (changes: WebSearchSettingsChanges) =>
    api.put<WebSearchSettings>('/api/system/settings/web-search', changes),
  testWebSearch: (body: WebSearchTest) =>
    api.post<WebSearchTestResult>('/api/system/settings/web-search/test', body),
  skillsSettings: () => api.get<SkillsSettings>('/api/system/settings/skills'),
  saveSkillsSettings: (body: SkillsSettings) => api.put<SkillsSettings>('/api/system/settings/skills', body),
  knowledgeSettings: () => api.get<KnowledgeSettings>('/api/system/settings/knowledge'),
  saveKnowledgeSettings: (body: KnowledgeSettings) =>
    api.put<KnowledgeSettings>('/api/system/settings/knowledge', body),
};
