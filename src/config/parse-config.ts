import { z } from 'zod';
import { AppConfig } from './app-config.js';
import { ConfigValidationError } from './config-error.js';
import { Secret } from './secret.js';
import { MB, optionalText, requiredText, integer, boolean, url, aesKey } from './env-fields.js';
import { derivedWorkerConcurrency } from './worker-concurrency.js';
import { CONTEXT_TOKENS_MIN, CONTEXT_TOKENS_MAX, parseModelContextWindows } from './model-context-windows.js';

export type Environment = Readonly<Record<string, string | undefined>>;

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * A model is configured unless both are left at their defaults: no key and OpenAI's own URL (which
 * would refuse every call). A local server (Ollama, vLLM) on another URL needs no key.
 */
function isModelConfigured(baseUrl: string, apiKey: string | undefined): boolean {
  return apiKey !== undefined || baseUrl.replace(/\/+$/, '') !== DEFAULT_OPENAI_BASE_URL;
}

const schema = z.object({
  APP_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  NODE_ENV: z.string().default('production'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT: integer(3000, 0, 65535),
  WORKER_HEALTH_PORT: integer(3001, 0, 65535),
  METRICS_PORT: integer(0, 0, 65535),
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  METRICS_MAX_AGENT_LABELS: integer(50, 1, 1000),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalText,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalText,
  OTEL_SDK_DISABLED: boolean(false),
  OTEL_TRACES_EXPORTER: optionalText,
  OTEL_CAPTURE_CONTENT: boolean(false),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  SKILLS_BUILTIN_DIR: z.string().trim().min(1).optional(),
  SKILL_DRAFTS_PER_USER: integer(5, 1, 1000),
  SKILL_DRAFT_BYTES_PER_USER: integer(100 * MB, 1024, 100 * 1024 * MB),
  HTTP_BODY_LIMIT_BYTES: integer(1 * MB, 1024, 1024 * MB),
  UPLOAD_LIMIT_BYTES: integer(50 * MB, 1024, 10 * 1024 * MB),
  KB_FILE_LIMIT_BYTES: integer(100 * MB, 1024, 10 * 1024 * MB),
  WORKSPACE_QUOTA_BYTES: integer(1024 * MB, 1024, Number.MAX_SAFE_INTEGER),
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '' || v.toLowerCase() === 'false') return false as const;
      if (/^\d+$/.test(v)) return Number(v);
      const entries = v
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e !== '');
      const ok = entries.every((e) =>
        /^(loopback|linklocal|uniquelocal|[0-9a-fA-F:.]+(\/\d{1,3})?)$/.test(e),
      );
      if (v.toLowerCase() === 'true' || !ok || entries.length === 0) {
        ctx.addIssue({
          code: 'custom',
          message:
            'must be false, a number of proxy hops, or a comma list of proxy addresses/CIDRs (true would let clients choose their IP)',
        });
        return z.NEVER;
      }
      return entries;
    }),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  DB_POOL_SIZE: integer(10, 1, 200),
  DB_MIGRATE_ON_START: boolean(true),
  REDIS_URL: url(['redis:', 'rediss:']),
  REDIS_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1-64 letters, digits, dots, dashes or underscores')
    .default('yuxi'),
  JWT_SECRET: requiredText.min(32, 'must be at least 32 characters'),
  JWT_TTL_SECONDS: integer(86_400, 60, 30 * 86_400),
  ADMIN_USERNAME: z
    .string()
    .trim()
    .regex(/^[a-zA-Z0-9_.-]{3,64}$/, 'must be 3-64 letters, digits, dots, dashes or underscores')
    .default('admin'),
  ADMIN_PASSWORD: optionalText.pipe(z.string().min(8, 'must be at least 8 characters').optional()),
  LOGIN_MAX_FAILURES_PER_MINUTE: integer(10, 1, 100_000),
  PASSWORD_HASH_LOG_N: integer(17, 14, 20),
  PASSWORD_CHECK_CONCURRENCY: integer(2, 1, 64),
  PASSWORD_CHECK_QUEUE: integer(32, 0, 10_000),
  SECRETS_KEY: aesKey,
  SECRETS_PREVIOUS_KEYS: optionalText,
  ALLOW_PRIVATE_NETWORK_TARGETS: optionalText,
  OPENAI_BASE_URL: url(['http:', 'https:'], DEFAULT_OPENAI_BASE_URL),
  OPENAI_API_KEY: optionalText,
  DEFAULT_MODEL: z.string().trim().min(1).default('gpt-4o-mini'),
  EMBEDDINGS_MODEL: optionalText,
  MODEL_CONTEXT_TOKENS: integer(128_000, CONTEXT_TOKENS_MIN, CONTEXT_TOKENS_MAX),
  CONTEXT_COMPRESSION_RATIO: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return 0.8;
      const n = Number(v);
      if (!/^\d*\.?\d+$/.test(v) || n < 0.1 || n > 1) {
        ctx.addIssue({ code: 'custom', message: `must be a number between 0.1 and 1, got "${v}"` });
        return z.NEVER;
      }
      return n;
    }),
  KNOWLEDGE_MCP_URL: optionalText,
  KNOWLEDGE_MCP_ALLOWED_HOSTS: optionalText,
  KNOWLEDGE_DELEGATION_TTL_SECONDS: integer(60, 30, 3600),
  TAVILY_API_KEY: optionalText,
  TAVILY_BASE_URL: url(['http:', 'https:'], 'https://api.tavily.com'),
  DEEPSEEK_API_KEY: optionalText,
  DEEPSEEK_BASE_URL: url(['http:', 'https:'], 'https://api.deepseek.com'),
  DOUBAO_SEARCH_API_KEY: optionalText,
  DOUBAO_SEARCH_BASE_URL: url(['http:', 'https:'], 'https://open.feedcoopapi.com'),
  RUN_LEASE_SECONDS: integer(30, 3, 3600),
  RUN_RECONCILE_SECONDS: integer(5, 1, 600),
  RUN_MAX_ATTEMPTS: integer(3, 1, 20),
  RUN_WORKER_CONCURRENCY: integer(derivedWorkerConcurrency(), 1, 5000),
  RUN_MAX_IN_FLIGHT_PER_USER: integer(20, 1, 100_000),
  RUN_WORKER_MAX_LOOP_DELAY_MS: integer(1000, 0, 60_000),
  RUN_EVENT_FLUSH_MS: integer(50, 0, 5000),
  SSE_HEARTBEAT_SECONDS: integer(15, 1, 300),
  SSE_MAX_STREAMS_PER_USER: integer(20, 1, 10_000),
  SSE_WRITE_TIMEOUT_SECONDS: integer(30, 1, 3600),
  AGENT_CALL_WAIT_SECONDS: integer(60, 1, 3600),
  SUBAGENT_MAX_ACTIVE_CHILDREN: integer(8, 1, 1000),
  RUN_MAX_TOOL_CALLS_PER_TURN: integer(32, 1, 1000),
  RUNS_MAX_ACTIVE_PER_USER: integer(50, 1, 100_000),
  ANSWER_MAX_CHARS: integer(20_000, 1, 1_000_000),
  TOOL_TIMEOUT_SECONDS: integer(60, 1, 3600),
  TOOL_RESULT_INLINE_CHARS: integer(20_000, 1, 10_000_000),
  SANDBOX_TIMEOUT_SECONDS: integer(180, 1, 600),
  SANDBOX_MEMORY_MB: integer(1024, 64, 65_536),
  SANDBOX_CPU_SECONDS: integer(300, 1, 86_400),
  SANDBOX_MAX_PROCESSES: integer(128, 8, 4096),
  SANDBOX_OUTPUT_LIMIT_BYTES: integer(256 * 1024, 1024, 64 * MB),
  SANDBOX_MAX_CONCURRENCY: integer(4, 1, 256),
  SANDBOX_MAX_PER_USER: integer(2, 1, 256),
  SANDBOX_TMP_MB: integer(64, 1, 65_536),
  SANDBOX_BWRAP: z.string().trim().min(1).default('bwrap'),
  MCP_MAX_RESPONSE_BYTES: integer(8 * MB, 64 * 1024, 1024 * MB),
  IMPROVEMENT_MARKS_RETENTION_DAYS: integer(365, 1, 36_500),
  CHECKPOINT_PRUNE_INTERVAL_SECONDS: integer(300, 10, 86_400),
  CHECKPOINT_PRUNE_BATCH: integer(200, 1, 10_000),
  SCHEDULES_PER_USER: integer(20, 1, 10_000),
  SCHEDULE_MIN_INTERVAL_SECONDS: integer(60, 1, 86_400),
  SCHEDULE_TICK_SECONDS: integer(5, 1, 60),
  OCR_ENGINE: z.enum(['local', 'http', 'disable']).default('local'),
  OCR_HTTP_URL: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      try {
        const parsed = new URL(v);
        if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return v;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: 'must be an http(s) URL' });
      return z.NEVER;
    }),
  OCR_HTTP_API_KEY: optionalText,
  OCR_HTTP_TIMEOUT_SECONDS: integer(120, 1, 3600),
  OCR_HTTP_MAX_RESPONSE_BYTES: integer(20 * MB, 1024, 1024 * MB),
  OCR_MAX_FILE_BYTES: integer(50 * MB, 1024, 1024 * MB),
  OCR_MAX_PDF_PAGES: integer(200, 1, 10_000),
  OCR_MAX_IMAGE_PIXELS: integer(40_000_000, 10_000, 500_000_000),
  OCR_MAX_UNZIPPED_BYTES: integer(512 * MB, MB, 4096 * MB),
  OCR_MAX_CONCURRENCY: integer(2, 1, 64),
  OCR_WORKER_MEMORY_MB: integer(1024, 64, 16_384),
  OCR_WORKER_TIMEOUT_SECONDS: integer(300, 1, 3600),
  SHUTDOWN_GRACE_SECONDS: integer(25, 0, 3600),
});

const secret = (value: string | undefined) => (value === undefined ? null : new Secret(value));

function parsePreviousKeys(raw: string | undefined): Secret[] {
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '')
    .map((k) => {
      const parsed = aesKey.safeParse(k);
      if (!parsed.success) {
        throw new ConfigValidationError([
          { variable: 'SECRETS_PREVIOUS_KEYS', problem: 'each key must be 32 bytes base64' },
        ]);
      }
      return new Secret(k);
    });
}

function parseTargets(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const entries = raw
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t !== '');
  const bad = entries.filter((t) => {
    const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(t);
    return match === null || (match[2] !== undefined && Number(match[2]) > 65535);
  });
  if (bad.length > 0) {
    throw new ConfigValidationError([
      {
        variable: 'ALLOW_PRIVATE_NETWORK_TARGETS',
        problem: `entries must be host or host:port, got ${bad.map((b) => `"${b}"`).join(', ')}`,
      },
    ]);
  }
  return entries;
}

/**
 * Where workers reach the builtin knowledge MCP endpoint (default: this process's own port on loopback)
 * and which `Host` values the endpoint answers: the URL's own host plus `KNOWLEDGE_MCP_ALLOWED_HOSTS`.
 */
function knowledgeMcpOf(e: z.infer<typeof schema>): AppConfig['knowledgeMcp'] {
  const refuse = (problem: string) => new ConfigValidationError([{ variable: 'KNOWLEDGE_MCP_URL', problem }]);
  let url: URL;
  try {
    url = new URL(e.KNOWLEDGE_MCP_URL ?? `http://127.0.0.1:${e.PORT}/mcp/knowledge`);
  } catch {
    throw refuse('must be a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('must use http or https');
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    throw refuse('must have no credentials, query or fragment');
  const extra = (e.KNOWLEDGE_MCP_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  return {
    url: url.toString(),
    allowedHosts: [...new Set([url.host.toLowerCase(), ...extra])],
    delegationTtlSeconds: e.KNOWLEDGE_DELEGATION_TTL_SECONDS,
  };
}

/**
 * Validates the environment into an `AppConfig`. Throws a `ConfigValidationError` naming every missing
 * or malformed variable; never echoes a secret's value.
 */
export function parseConfig(env: Environment): AppConfig {
  const result = schema.safeParse(env);
  const contextWindows = parseModelContextWindows(env);
  if (!result.success || contextWindows.problems.length > 0) {
    throw new ConfigValidationError([
      ...(result.error?.issues ?? []).map((issue) => ({
        variable: String(issue.path[0] ?? '?'),
        problem: issue.code === 'invalid_type' ? 'is required' : issue.message,
      })),
      ...contextWindows.problems,
    ]);
  }
  const e = result.data;
  if (e.OCR_ENGINE === 'http' && e.OCR_HTTP_URL === undefined) {
    throw new ConfigValidationError([
      { variable: 'OCR_HTTP_URL', problem: 'is required when OCR_ENGINE=http' },
    ]);
  }
  return new AppConfig({
    role: e.APP_ROLE,
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    dataDir: e.DATA_DIR,
    skills: {
      builtinDir: e.SKILLS_BUILTIN_DIR ?? null,
      draftsPerUser: e.SKILL_DRAFTS_PER_USER,
      draftBytesPerUser: e.SKILL_DRAFT_BYTES_PER_USER,
    },
    workspace: { quotaBytes: e.WORKSPACE_QUOTA_BYTES },
    http: {
      port: e.PORT,
      bodyLimitBytes: e.HTTP_BODY_LIMIT_BYTES,
      uploadLimitBytes: e.UPLOAD_LIMIT_BYTES,
      kbFileLimitBytes: e.KB_FILE_LIMIT_BYTES,
      trustProxy: e.TRUST_PROXY,
    },
    workerHealth: { port: e.WORKER_HEALTH_PORT === 0 ? null : e.WORKER_HEALTH_PORT },
    metrics: {
      port: e.METRICS_PORT === 0 ? null : e.METRICS_PORT,
      token: secret(e.METRICS_TOKEN),
      maxAgentLabels: e.METRICS_MAX_AGENT_LABELS,
    },
    tracing: {
      enabled:
        (e.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined) &&
        !e.OTEL_SDK_DISABLED &&
        e.OTEL_TRACES_EXPORTER !== 'none',
      captureContent: e.OTEL_CAPTURE_CONTENT,
    },
    database: {
      url: new Secret(e.DATABASE_URL),
      poolSize: e.DB_POOL_SIZE,
      migrateOnStart: e.DB_MIGRATE_ON_START,
    },
    redis: { url: new Secret(e.REDIS_URL), prefix: e.REDIS_PREFIX },
    auth: {
      jwtSecret: new Secret(e.JWT_SECRET),
      jwtTtlSeconds: e.JWT_TTL_SECONDS,
      adminUsername: e.ADMIN_USERNAME,
      adminPassword: secret(e.ADMIN_PASSWORD),
      loginMaxFailuresPerMinute: e.LOGIN_MAX_FAILURES_PER_MINUTE,
      passwordHashLogN: e.PASSWORD_HASH_LOG_N,
      passwordCheckConcurrency: e.PASSWORD_CHECK_CONCURRENCY,
      passwordCheckQueue: e.PASSWORD_CHECK_QUEUE,
    },
    secrets: {
      key: new Secret(e.SECRETS_KEY),
      previousKeys: parsePreviousKeys(e.SECRETS_PREVIOUS_KEYS),
    },
    outbound: { allowPrivateNetworkTargets: parseTargets(e.ALLOW_PRIVATE_NETWORK_TARGETS) },
    llm: {
      openaiBaseUrl: e.OPENAI_BASE_URL,
      openaiApiKey: secret(e.OPENAI_API_KEY),
      configured: isModelConfigured(e.OPENAI_BASE_URL, e.OPENAI_API_KEY),
      defaultModel: e.DEFAULT_MODEL,
      embeddingsModel: e.EMBEDDINGS_MODEL ?? null,
      context: {
        windowTokens: e.MODEL_CONTEXT_TOKENS,
        windowTokensByModel: contextWindows.windows,
        compressionRatio: e.CONTEXT_COMPRESSION_RATIO,
      },
    },
    vendors: {
      tavily: { apiKey: secret(e.TAVILY_API_KEY), baseUrl: e.TAVILY_BASE_URL },
      deepseek: { apiKey: secret(e.DEEPSEEK_API_KEY), baseUrl: e.DEEPSEEK_BASE_URL },
      doubaoSearch: { apiKey: secret(e.DOUBAO_SEARCH_API_KEY), baseUrl: e.DOUBAO_SEARCH_BASE_URL },
    },
    knowledgeMcp: knowledgeMcpOf(e),
    tools: {
      defaultTimeoutMs: e.TOOL_TIMEOUT_SECONDS * 1000,
      resultInlineChars: e.TOOL_RESULT_INLINE_CHARS,
    },
    mcp: { maxResponseBytes: e.MCP_MAX_RESPONSE_BYTES },
    improvementMarks: { retentionDays: e.IMPROVEMENT_MARKS_RETENTION_DAYS },
    ocr: {
      defaultEngine: e.OCR_ENGINE,
      httpUrl: e.OCR_HTTP_URL ?? null,
      httpApiKey: secret(e.OCR_HTTP_API_KEY),
      httpTimeoutMs: e.OCR_HTTP_TIMEOUT_SECONDS * 1000,
      httpMaxResponseBytes: e.OCR_HTTP_MAX_RESPONSE_BYTES,
      maxFileBytes: e.OCR_MAX_FILE_BYTES,
      maxPdfPages: e.OCR_MAX_PDF_PAGES,
      maxImagePixels: e.OCR_MAX_IMAGE_PIXELS,
      maxUnzippedBytes: e.OCR_MAX_UNZIPPED_BYTES,
      maxConcurrency: e.OCR_MAX_CONCURRENCY,
      workerMemoryMb: e.OCR_WORKER_MEMORY_MB,
      workerTimeoutMs: e.OCR_WORKER_TIMEOUT_SECONDS * 1000,
    },
    sandbox: {
      timeoutSeconds: e.SANDBOX_TIMEOUT_SECONDS,
      memoryMb: e.SANDBOX_MEMORY_MB,
      cpuSeconds: e.SANDBOX_CPU_SECONDS,
      maxProcesses: e.SANDBOX_MAX_PROCESSES,
      outputLimitBytes: e.SANDBOX_OUTPUT_LIMIT_BYTES,
      maxConcurrency: e.SANDBOX_MAX_CONCURRENCY,
      maxPerUser: e.SANDBOX_MAX_PER_USER,
      tmpMb: e.SANDBOX_TMP_MB,
      bwrap: e.SANDBOX_BWRAP,
    },
    runtime: {
      runLeaseSeconds: e.RUN_LEASE_SECONDS,
      reconcileSeconds: e.RUN_RECONCILE_SECONDS,
      maxAttempts: e.RUN_MAX_ATTEMPTS,
      workerConcurrency: e.RUN_WORKER_CONCURRENCY,
      maxInFlightPerUser: e.RUN_MAX_IN_FLIGHT_PER_USER,
      maxLoopDelayMs: e.RUN_WORKER_MAX_LOOP_DELAY_MS,
      eventFlushMs: e.RUN_EVENT_FLUSH_MS,
      sseHeartbeatSeconds: e.SSE_HEARTBEAT_SECONDS,
      sseMaxStreamsPerUser: e.SSE_MAX_STREAMS_PER_USER,
      sseWriteTimeoutSeconds: e.SSE_WRITE_TIMEOUT_SECONDS,
      agentCallWaitSeconds: e.AGENT_CALL_WAIT_SECONDS,
      maxActiveChildren: e.SUBAGENT_MAX_ACTIVE_CHILDREN,
      maxToolCallsPerTurn: e.RUN_MAX_TOOL_CALLS_PER_TURN,
      maxActiveRunsPerUser: e.RUNS_MAX_ACTIVE_PER_USER,
      answerMaxChars: e.ANSWER_MAX_CHARS,
      shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
      checkpointPruneSeconds: e.CHECKPOINT_PRUNE_INTERVAL_SECONDS,
      checkpointPruneBatch: e.CHECKPOINT_PRUNE_BATCH,
    },
    schedules: {
      perUser: e.SCHEDULES_PER_USER,
      minIntervalSeconds: e.SCHEDULE_MIN_INTERVAL_SECONDS,
      tickSeconds: e.SCHEDULE_TICK_SECONDS,
    },
  });
}
