import type { Secret } from './secret.js';

export type AppRole = 'all' | 'api' | 'worker';

/** The validated, typed configuration. Built once at boot by `parseConfig`; nothing else reads process.env. */
export class AppConfig {
  readonly role: AppRole;
  readonly nodeEnv: string;
  readonly logLevel: string;
  readonly dataDir: string;
  readonly skills: {
    /** Builtin skills (`<slug>/SKILL.md` folders) synced at every start; null: the installation's `skills/builtin`. */
    readonly builtinDir: string | null;
    /** Unconfirmed skill drafts one user may keep at a time… */
    readonly draftsPerUser: number;
    /** …and the bytes of their uploads or fetched archives together. */
    readonly draftBytesPerUser: number;
  };
  readonly workspace: {
    /** Bytes one user's workspace may hold in all (tools, uploads, OCR results, large tool results). */
    readonly quotaBytes: number;
  };
  readonly http: {
    readonly port: number;
    readonly bodyLimitBytes: number;
    readonly uploadLimitBytes: number;
    readonly kbFileLimitBytes: number;
    /** Express `trust proxy`: false, a hop count, or proxy addresses/CIDRs. */
    readonly trustProxy: false | number | readonly string[];
  };
  readonly workerHealth: {
    /** The worker process's live/ready listener (`WORKER_HEALTH_PORT`); null: none (`0`). */
    readonly port: number | null;
  };
  readonly metrics: {
    /** A listener of its own serving only `/metrics` (`METRICS_PORT`); null: none (`0`, the default). */
    readonly port: number | null;
    /** Bearer token for `/metrics` on the main port (API) or the health listener (worker); null: not served there. */
    readonly token: Secret | null;
    /** Distinct agent slugs kept as label values; later ones are counted under `(other)`. */
    readonly maxAgentLabels: number;
  };
  readonly tracing: {
    /**
     * OpenTelemetry traces are exported (an OTLP endpoint is set, the SDK is not disabled). The SDK
     * reads the other standard `OTEL_*` variables itself.
     */
    readonly enabled: boolean;
    /** Spans may carry prompts, tool arguments and results (`OTEL_CAPTURE_CONTENT`). */
    readonly captureContent: boolean;
  };
  readonly database: {
    readonly url: Secret;
    readonly poolSize: number;
    readonly migrateOnStart: boolean;
  };
  readonly redis: {
    readonly url: Secret;
    /** Namespace for every key this deployment writes (BullMQ queues included). */
    readonly prefix: string;
  };
  readonly auth: {
    readonly jwtSecret: Secret;
    readonly jwtTtlSeconds: number;
    readonly adminUsername: string;
    readonly adminPassword: Secret | null;
    readonly loginMaxFailuresPerMinute: number;
    /** scrypt cost for new password hashes: N = 2^this (r=8, p=1). */
    readonly passwordHashLogN: number;
    /** scrypt derivations one process runs at once (each holds 128·N·8 bytes). */
    readonly passwordCheckConcurrency: number;
    /** Password checks that may wait for a slot; a login beyond them gets 429. */
    readonly passwordCheckQueue: number;
  };
  readonly secrets: {
    /** 32-byte AES key. */
    readonly key: Secret;
    /** Earlier keys still accepted for decryption (rotation). */
    readonly previousKeys: readonly Secret[];
  };
  readonly outbound: {
    /** host or host:port entries allowed despite the SSRF guard (lower-case). */
    readonly allowPrivateNetworkTargets: readonly string[];
  };
  readonly llm: {
    readonly openaiBaseUrl: string;
    readonly openaiApiKey: Secret | null;
    /** False with no `OPENAI_API_KEY` on the default OpenAI URL: runs fail with `models.not_configured`. */
    readonly configured: boolean;
    readonly defaultModel: string;
    readonly embeddingsModel: string | null;
    readonly context: {
      /** `MODEL_CONTEXT_TOKENS`: a model's context window unless it has its own. */
      readonly windowTokens: number;
      /** `MODEL_CONTEXT_TOKENS_<MODEL>` by `<MODEL>` (`modelContextKey`). */
      readonly windowTokensByModel: ReadonlyMap<string, number>;
      /** A request estimated above this share of the window is compressed first. */
      readonly compressionRatio: number;
    };
  };
  readonly vendors: {
    readonly tavily: { readonly apiKey: Secret | null; readonly baseUrl: string };
    readonly deepseek: { readonly apiKey: Secret | null; readonly baseUrl: string };
    readonly doubaoSearch: { readonly apiKey: Secret | null; readonly baseUrl: string };
  };
  readonly knowledgeMcp: {
    /** The builtin knowledge MCP endpoint as workers reach it (`KNOWLEDGE_MCP_URL`). */
    readonly url: string;
    /** `Host` header values (`host[:port]`, lower-case) the endpoint answers; anything else is 403. */
    readonly allowedHosts: readonly string[];
    /** Lifetime of one delegation token (minted per call, so minutes are plenty). */
    readonly delegationTtlSeconds: number;
  };
  readonly tools: {
    /** Per-call timeout unless a tool declares its own (TOOL_TIMEOUT_SECONDS). */
    readonly defaultTimeoutMs: number;
    /**
     * Longest tool result, in characters, the model gets inline (TOOL_RESULT_INLINE_CHARS); a longer
     * one is saved under `large_tool_results/` and the model gets its head, tail and path.
     */
    readonly resultInlineChars: number;
  };
  readonly mcp: {
    /**
     * Most bytes one response of a remote MCP server may carry (one event of an event stream), past
     * which the connection is closed (MCP_MAX_RESPONSE_BYTES).
     */
    readonly maxResponseBytes: number;
  };
  readonly improvementMarks: {
    /** Marks older than this many days are deleted by the daily maintenance job. */
    readonly retentionDays: number;
  };
  readonly ocr: {
    /** `local` (worker threads in this process), `http` (an external OCR service) or `disable`. */
    readonly defaultEngine: 'local' | 'http' | 'disable';
    readonly httpUrl: string | null;
    readonly httpApiKey: Secret | null;
    readonly httpTimeoutMs: number;
    readonly httpMaxResponseBytes: number;
    readonly maxFileBytes: number;
    readonly maxPdfPages: number;
    readonly maxImagePixels: number;
    readonly maxUnzippedBytes: number;
    readonly maxConcurrency: number;
    readonly workerMemoryMb: number;
    /** A conversion worker (parsing and clean-up) is terminated after this. */
    readonly workerTimeoutMs: number;
  };
  /** The `execute` tool's sandbox (`modules/sandbox`). */
  readonly sandbox: {
    /** Default and cap of a command's wall time (`timeout_s` may ask for less, up to 600). */
    readonly timeoutSeconds: number;
    /** Address space of each process of a command. */
    readonly memoryMb: number;
    /** CPU time of each process of a command. */
    readonly cpuSeconds: number;
    /** Processes (and threads) a command may have at once. */
    readonly maxProcesses: number;
    /** What is kept of stdout, and of stderr, each. */
    readonly outputLimitBytes: number;
    /** Sandboxes one worker process runs at once. */
    readonly maxConcurrency: number;
    /** Sandboxes one user has at once in a worker process. */
    readonly maxPerUser: number;
    /** Size of the command's private /tmp. */
    readonly tmpMb: number;
    /** The bubblewrap program (a name looked up in PATH, or a path). */
    readonly bwrap: string;
  };
  readonly runtime: {
    /** A claimed run's lease; the worker renews it every third of this. */
    readonly runLeaseSeconds: number;
    /** How often workers look for runs with an expired lease or a lost job. */
    readonly reconcileSeconds: number;
    /** Claims of one run (first try plus re-queues after a lost worker) before it fails. */
    readonly maxAttempts: number;
    /** Runs one worker process executes at once (by default derived from its heap). */
    readonly workerConcurrency: number;
    /** Runs of one user in flight (running or being cancelled) at once, over every worker. */
    readonly maxInFlightPerUser: number;
    /** Above this event loop delay (p99, ms) a worker takes no more runs until it keeps up; 0: never. */
    readonly maxLoopDelayMs: number;
    /** Message deltas are batched into one event per this many milliseconds. */
    readonly eventFlushMs: number;
    readonly sseHeartbeatSeconds: number;
    /** Run event streams one user may hold open at once, over every API process. */
    readonly sseMaxStreamsPerUser: number;
    /** A stream whose client takes nothing for this long while a write waits is closed. */
    readonly sseWriteTimeoutSeconds: number;
    /** Bound of `POST /api/agent-calls` with `wait: true` before it answers 504. */
    readonly agentCallWaitSeconds: number;
    /** Children (subagent runs) one parent run may have active at once. */
    readonly maxActiveChildren: number;
    /** Tool calls of one model turn that are executed; the rest get a tool error. */
    readonly maxToolCallsPerTurn: number;
    /** Runs of one user queued, running or cancel-requested at once (waiting runs hold no worker). */
    readonly maxActiveRunsPerUser: number;
    /** Longest free-text answer to an `ask_user_question` question. */
    readonly answerMaxChars: number;
    readonly shutdownGraceSeconds: number;
    /** How often the maintenance worker prunes checkpoints older than each thread's latest. */
    readonly checkpointPruneSeconds: number;
    /** Threads one pruning batch reads (each pruned in its own transaction). */
    readonly checkpointPruneBatch: number;
  };
  readonly schedules: {
    /** Schedules one user may own. */
    readonly perUser: number;
    /** The shortest gap a schedule's cron may leave between two firings. */
    readonly minIntervalSeconds: number;
    /** How often each worker process looks for due schedules. */
    readonly tickSeconds: number;
  };

  constructor(values: AppConfig) {
    Object.assign(this, values);
  }
}
