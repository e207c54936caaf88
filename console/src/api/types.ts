/** The shapes of the API answers the console reads (field names as the API sends them). */

export type Role = 'user' | 'admin' | 'superadmin';

export interface User {
  id: string;
  username: string;
  role: Role;
  department_id: string | null;
}

export interface TokenAnswer {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  user: User;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface Agent {
  slug: string;
  name: string;
  description: string | null;
  is_subagent: boolean;
}

/** `"all"`: every resource the running user may use, including later ones; else a fixed list. */
export type ResourceSelection = 'all' | string[];

export type ApprovalDefault = 'auto' | 'ask' | 'allow';
export type ApprovalRuleDecision = 'allow' | 'ask' | 'deny';

export interface ApprovalRule {
  tool: string;
  decision: ApprovalRuleDecision;
}

export interface ApprovalPolicy {
  default: ApprovalDefault;
  rules: ApprovalRule[];
}

/** A config field's value: text, a number, a resource selection (`"all"` is a string) or a policy. */
export type AgentConfigValue = string | number | string[] | ApprovalPolicy;
export type AgentConfig = Record<string, AgentConfigValue | undefined>;

export type ConfigFieldType = 'text' | 'string' | 'integer' | 'resources' | 'approval';

/** One field of the agent edit form, as the service describes it for the caller. */
export interface ConfigurableItem {
  field: string;
  name: string;
  description: string;
  type: ConfigFieldType;
  default: AgentConfigValue;
  minimum?: number;
  maximum?: number;
  options?: { value: string; label: string; description?: string }[];
}

export interface AgentSummary extends Agent {
  builtin: boolean;
  owner_id: string | null;
  share_config: ShareConfig;
  config: AgentConfig;
  permission: 'read' | 'manage';
  created_at: string;
  updated_at: string;
}

export interface AgentDetail extends AgentSummary {
  configurable_items: ConfigurableItem[];
}

export interface AgentChanges {
  name?: string;
  description?: string | null;
  config?: AgentConfig;
  share_config?: ShareConfig;
}

export type OccurrenceStatus = 'started' | 'skipped' | 'failed';

export interface ScheduleOccurrence {
  id: string;
  scheduled_for: string;
  status: OccurrenceStatus;
  reason?: string | null;
  run_id?: string | null;
  thread_id?: string | null;
  created_at: string;
}

export interface Schedule {
  id: string;
  agent_slug: string;
  owner_id: string;
  cron: string;
  timezone: string;
  input: string;
  enabled: boolean;
  next_run_at: string | null;
  last_occurrence?: ScheduleOccurrence | null;
  created_at: string;
}

export interface ScheduleFields {
  cron: string;
  timezone: string;
  input: string;
  enabled: boolean;
}

export interface Thread {
  id: string;
  agent_slug: string;
  title: string | null;
  workdir: string;
  created_at: string;
  updated_at: string;
}

export interface ToolCallRef {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface ThreadMessage {
  id: string;
  run_id: string | null;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: ToolCallRef[];
  tool_call_id?: string;
  name?: string;
  created_at: string;
}

export type RunStatus =
  'queued' | 'running' | 'waiting' | 'cancel_requested' | 'completed' | 'failed' | 'cancelled';

export const FINAL_STATUSES: readonly RunStatus[] = ['completed', 'failed', 'cancelled'];

export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
}

export interface Run {
  id: string;
  thread_id: string;
  agent_slug: string;
  status: RunStatus;
  error?: { code: string; message: string } | null;
  token_usage: TokenUsage & { total_tokens: number };
}

export interface RunCreated {
  run_id: string;
  status: RunStatus;
  queue_position: number;
  stream_url: string;
}

export interface QuestionOption {
  label: string;
  value: string;
  description?: string;
}

export interface Question {
  question_id: string;
  question: string;
  options?: QuestionOption[];
  multi_select: boolean;
  allow_other: boolean;
  tool_call_id: string;
}

export interface ApprovalRequest {
  tool_call_id: string;
  name: string;
  args: Record<string, unknown>;
  source: 'builtin' | 'mcp' | 'skill';
  server?: string;
  reason: string;
  args_schema?: Record<string, unknown>;
}

export interface WaitingPoint {
  id: string;
  run_id: string;
  kind: 'questions' | 'approval';
  questions: Question[];
  approvals?: ApprovalRequest[];
  status: 'open' | 'answered' | 'cancelled';
}

export interface ThreadState {
  active_run: { id: string; status: RunStatus } | null;
  waiting_point?: WaitingPoint | null;
  artifacts: Artifact[];
}

export interface Artifact {
  path: string;
  run_id: string;
  created_at: string;
}

export interface ThreadUsage {
  total: TokenUsage & { calls: number };
  by_model: (TokenUsage & { model: string; calls: number })[];
}

export type Answers = Record<string, string | string[]>;

export interface Decision {
  decision: 'approve' | 'reject' | 'edit';
  args?: Record<string, unknown>;
  message?: string;
  remember?: 'once' | 'thread';
}

export interface Tool {
  id: string;
  display_name: string;
  description: string;
  category: string;
  tags: string[];
  config_guide: string | null;
  base: boolean;
  side_effects: 'none' | 'workspace' | 'external' | 'execute';
  available: boolean;
  unavailable_reason: string | null;
}

export interface ApiKey {
  id: string;
  user_id: string;
  name: string;
  key_prefix: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export interface CreatedApiKey {
  id: string;
  name: string;
  key_prefix: string;
  /** The secret: shown in this answer only. */
  key: string;
  expires_at: string | null;
  created_at: string;
}

export interface ManagedUser {
  id: string;
  username: string;
  role: Role;
  department_id: string;
  disabled: boolean;
  created_at: string;
}

export interface Department {
  id: string;
  name: string;
  description: string | null;
}

export type UsageGroup = 'day' | 'model' | 'user' | 'agent';

export interface UsageRow {
  key: string | null;
  /** By agent: the agent's name (null once deleted). */
  label?: string | null;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  calls: number;
}

export interface ImprovementMark {
  id: string;
  run_id: string;
  tool_call_id: string;
  agent_slug: string;
  user_id: string;
  thread_id: string;
  reason: string;
  created_at: string;
}

/** What any user may know of another: enough to share with them by name. */
export interface DirectoryUser {
  id: string;
  username: string;
}

/** Who may read or manage a shared resource (`src/common/sharing/`); `null` is nobody beyond its owner. */
export type ShareScope =
  | { level: 'global' }
  | { level: 'department'; department_ids: string[] }
  | { level: 'users'; user_ids: string[] };

export interface ShareConfig {
  version: 2;
  read_scope: ShareScope | null;
  manage_scope: ShareScope | null;
}

export type SkillSource = 'builtin' | 'shared' | 'personal';

export interface SkillSummary {
  slug: string;
  name: string;
  description: string;
  version: string;
  source: SkillSource;
  enabled: boolean;
  permission: 'read' | 'manage';
  shadowed_by_personal: boolean;
}

export interface SkillDependencies {
  tool_dependencies: string[];
  mcp_dependencies: string[];
  skill_dependencies: string[];
}

export interface Skill extends SkillSummary, SkillDependencies {
  share_config: ShareConfig | null;
  owner_id: string | null;
  revision: string;
  license: string | null;
  compatibility: string | null;
  created_at: string;
  updated_at: string;
}

export interface KnowledgeBase {
  kb_id: string;
  name: string;
  description: string;
  owner_id: string | null;
  share_config: ShareConfig;
  permission: 'read' | 'manage';
  created_at: string;
  updated_at: string;
}

export interface SkillTree {
  slug: string;
  revision: string;
  files: { path: string; size: number }[];
}

export interface SkillFile {
  path: string;
  content: string;
  revision: string;
}

export interface SkillDraftItem extends SkillDependencies {
  slug: string;
  name: string;
  description: string;
  version: string;
  warnings: string[];
}

export interface SkillDraftFailure {
  path: string;
  error: string;
  code: string;
}

export interface SkillDraft {
  id: string;
  expires_at: string;
  items: SkillDraftItem[];
  failures: SkillDraftFailure[];
}

export interface ConfirmedSkillDraft {
  target: 'personal' | 'shared';
  installed: { draft_slug: string; slug: string; warnings: string[] }[];
}

export type KbFileStatus = 'pending' | 'parsing' | 'indexed' | 'failed';

export interface KbFile {
  file_id: string;
  kb_id: string;
  filename: string;
  file_type: string;
  size_bytes: number;
  status: KbFileStatus;
  error: { code: string; message: string } | null;
  /** Grows by one at each upload of the same name. */
  version: number;
  line_count: number | null;
  chunk_count: number | null;
  created_at: string;
  updated_at: string;
}

export interface KbHit {
  kb_id: string;
  file_id: string;
  filename: string;
  chunk_index: number;
  content: string;
  score: number;
}

export type McpTransport = 'streamable_http' | 'sse';

/** An MCP server as an admin sees it: header names with redacted values. */
export interface McpServer {
  slug: string;
  name: string;
  description: string;
  icon: string | null;
  tags: string[];
  enabled: boolean;
  /** `stdio` only on legacy rows, which stay disabled. */
  transport: McpTransport | 'stdio';
  url: string;
  headers: Record<string, string>;
  timeout_s: number;
  sse_read_timeout_s: number;
  disabled_tools: string[];
  source: 'builtin' | 'custom';
  created_by: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
}

/** What a PATCH may change (only the fields sent change; `headers` replaces the map). */
export interface McpServerChanges {
  name?: string;
  transport?: McpTransport;
  url?: string;
  description?: string;
  headers?: Record<string, string>;
  timeout_s?: number;
  sse_read_timeout_s?: number;
  tags?: string[];
}

export interface NewMcpServer extends McpServerChanges {
  slug: string;
  name: string;
  transport: McpTransport;
  url: string;
}

export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface McpTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  enabled: boolean;
  annotations?: McpToolAnnotations;
}

export interface McpTestResult {
  ok: boolean;
  latency_ms?: number;
  tools?: { name: string; description: string }[];
  error?: { code: string; message: string };
}
export const WEB_VENDORS = ['tavily', 'deepseek', 'doubao'] as const;
export type WebVendor = (typeof WEB_VENDORS)[number];
export const SEARCH_PROVIDERS = ['auto', 'none', 'tavily', 'deepseek', 'doubao'] as const;
export type SearchProvider = (typeof SEARCH_PROVIDERS)[number];
export const FETCH_PROVIDERS = ['auto', 'none', 'tavily', 'deepseek'] as const;
export type FetchProvider = (typeof FETCH_PROVIDERS)[number];

export interface ProviderKey {
  has_key: boolean;
  /** A redacted form such as `tvly…abcd`; never the key. */
  key_preview: string | null;
  /** A key saved in the settings wins over the environment's. */
  source: 'settings' | 'env' | 'none';
}

export interface WebSearchSettings {
  search_provider: SearchProvider;
  fetch_provider: FetchProvider;
  providers: Record<WebVendor, ProviderKey>;
}

/** `PUT /api/system/settings/web-search`: only what changes; a `null` key clears the saved one. */
export interface WebSearchSettingsChanges {
  search_provider?: SearchProvider;
  fetch_provider?: FetchProvider;
  api_keys?: Partial<Record<WebVendor, string | null>>;
}

export interface WebSearchTest {
  kind: 'search' | 'fetch';
  provider: WebVendor;
  api_key?: string;
  query?: string;
  url?: string;
}

export interface WebSearchTestResult {
  ok: boolean;
  latency_ms: number;
  result_count?: number;
  content_chars?: number;
  error?: { code: string; message: string };
}

export interface SkillsSettings {
  remote_source_allowed_hosts: string[];
}

export interface KnowledgeSettings {
  enabled: boolean;
}
