import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { ConfigValidationError } from '../../../src/config/config-error';
import { parseConfig } from '../../../src/config/parse-config';
import { derivedWorkerConcurrency } from '../../../src/config/worker-concurrency';
import { contextLimitsOf } from '../../../src/modules/agent-runtime/context/context-limits';

const valid = {
  DATABASE_URL: 'postgres://app:db-password@127.0.0.1:5432/yuxi',
  REDIS_URL: 'redis://127.0.0.1:6379/0',
  JWT_SECRET: 'j'.repeat(40),
  SECRETS_KEY: randomBytes(32).toString('base64'),
};

function problemsOf(env: Record<string, string | undefined>): Record<string, string> {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigValidationError);
    return Object.fromEntries((error as ConfigValidationError).problems.map((p) => [p.variable, p.problem]));
  }
  throw new Error('expected the configuration to be refused');
}

describe('parseConfig', () => {
  it('fills documented defaults', () => {
    const config = parseConfig(valid);
    expect(config.role).toBe('all');
    expect(config.http.port).toBe(3000);
    expect(config.http.bodyLimitBytes).toBe(1024 * 1024);
    expect(config.database.migrateOnStart).toBe(true);
    expect(config.runtime).toEqual({
      runLeaseSeconds: 30,
      reconcileSeconds: 5,
      maxAttempts: 3,
      workerConcurrency: derivedWorkerConcurrency(),
      maxInFlightPerUser: 20,
      maxLoopDelayMs: 1000,
      eventFlushMs: 50,
      sseHeartbeatSeconds: 15,
      sseMaxStreamsPerUser: 20,
      sseWriteTimeoutSeconds: 30,
      agentCallWaitSeconds: 60,
      maxActiveChildren: 8,
      maxToolCallsPerTurn: 32,
      maxActiveRunsPerUser: 50,
      answerMaxChars: 20_000,
      shutdownGraceSeconds: 25,
      checkpointPruneSeconds: 300,
      checkpointPruneBatch: 200,
    });
    expect(config.auth.loginMaxFailuresPerMinute).toBe(10);
    expect(config.auth.passwordHashLogN).toBe(17);
    expect(config.auth.passwordCheckConcurrency).toBe(2);
    expect(config.auth.passwordCheckQueue).toBe(32);
    expect(config.http.trustProxy).toBe(false);
    expect(config.workspace.quotaBytes).toBe(1073741824);
    expect(parseConfig({ ...valid, WORKSPACE_QUOTA_BYTES: '2048' }).workspace.quotaBytes).toBe(2048);
  });

  it('reads TOOL_RESULT_INLINE_CHARS, the longest tool result shown inline (default 20,000)', () => {
    expect(parseConfig(valid).tools.resultInlineChars).toBe(20_000);
    expect(parseConfig({ ...valid, TOOL_RESULT_INLINE_CHARS: '' }).tools.resultInlineChars).toBe(20_000);
    expect(parseConfig({ ...valid, TOOL_RESULT_INLINE_CHARS: ' 50000 ' }).tools.resultInlineChars).toBe(
      50_000,
    );
    expect(parseConfig({ ...valid, TOOL_RESULT_INLINE_CHARS: '1' }).tools.resultInlineChars).toBe(1);
    expect(() => parseConfig({ ...valid, TOOL_RESULT_INLINE_CHARS: 'lots' })).toThrow(
      'Invalid configuration:\n  - TOOL_RESULT_INLINE_CHARS: must be an integer, got "lots"',
    );
  });

  it('reads WORKER_HEALTH_PORT, the worker live/ready listener (default 3001, 0 turns it off)', () => {
    expect(parseConfig(valid).workerHealth.port).toBe(3001);
    expect(parseConfig({ ...valid, WORKER_HEALTH_PORT: '' }).workerHealth.port).toBe(3001);
    expect(parseConfig({ ...valid, WORKER_HEALTH_PORT: ' 9100 ' }).workerHealth.port).toBe(9100);
    expect(parseConfig({ ...valid, WORKER_HEALTH_PORT: '0' }).workerHealth.port).toBeNull();
    expect(problemsOf({ ...valid, WORKER_HEALTH_PORT: 'off' })).toEqual({
      WORKER_HEALTH_PORT: 'must be an integer, got "off"',
    });
    expect(problemsOf({ ...valid, WORKER_HEALTH_PORT: '65536' })).toEqual({
      WORKER_HEALTH_PORT: 'must be between 0 and 65535, got 65536',
    });
  });

  it('tells whether a chat model is configured: not without a key on the default OpenAI URL', () => {
    const configured = (env: Record<string, string>) => parseConfig({ ...valid, ...env }).llm.configured;
    expect(configured({})).toBe(false);
    expect(configured({ OPENAI_BASE_URL: 'https://api.openai.com/v1/' })).toBe(false);
    expect(configured({ OPENAI_API_KEY: 'sk-test' })).toBe(true);
    // A local server (Ollama, vLLM) needs no key.
    expect(configured({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toBe(true);
  });

  it('names every missing required variable in one error', () => {
    const problems = problemsOf({});
    expect(Object.keys(problems).sort()).toEqual(['DATABASE_URL', 'JWT_SECRET', 'REDIS_URL', 'SECRETS_KEY']);
    expect(problems.DATABASE_URL).toBe('is required');
  });

  it.each([
    ['PORT', 'eighty', 'must be an integer'],
    ['PORT', '70000', 'between 0 and 65535'],
    ['DB_MIGRATE_ON_START', 'maybe', 'must be true or false'],
    ['DATABASE_URL', 'mysql://x@y/z', 'must use postgres or postgresql'],
    ['REDIS_URL', 'not a url', 'must be a URL'],
    ['JWT_SECRET', 'short', 'at least 32 characters'],
    ['SECRETS_KEY', randomBytes(16).toString('base64'), 'exactly 32 bytes'],
    ['SECRETS_KEY', 'not base64 !!', 'exactly 32 bytes'],
    ['APP_ROLE', 'scheduler', 'all'],
    ['TRUST_PROXY', 'true', 'number of proxy hops'],
    ['ALLOW_PRIVATE_NETWORK_TARGETS', 'http://host', 'host or host:port'],
    ['ALLOW_PRIVATE_NETWORK_TARGETS', 'host:99999', 'host or host:port'],
    ['ADMIN_PASSWORD', 'short', 'at least 8 characters'],
    ['WORKSPACE_QUOTA_BYTES', '1gb', 'must be an integer'],
    ['WORKSPACE_QUOTA_BYTES', '10', 'between 1024 and'],
    ['PASSWORD_HASH_LOG_N', '13', 'between 14 and 20'],
    ['PASSWORD_HASH_LOG_N', '21', 'between 14 and 20'],
    ['SUBAGENT_MAX_ACTIVE_CHILDREN', '0', 'between 1 and 1000'],
    ['RUN_MAX_TOOL_CALLS_PER_TURN', 'many', 'must be an integer'],
    ['RUNS_MAX_ACTIVE_PER_USER', '0', 'between 1 and'],
    ['TOOL_RESULT_INLINE_CHARS', '0', 'between 1 and'],
    ['TOOL_RESULT_INLINE_CHARS', '-5', 'must be an integer, got "-5"'],
    ['TOOL_RESULT_INLINE_CHARS', '20k', 'must be an integer, got "20k"'],
    ['TOOL_RESULT_INLINE_CHARS', '2.5', 'must be an integer'],
    ['MODEL_CONTEXT_TOKENS', '128k', 'must be an integer'],
    ['MODEL_CONTEXT_TOKENS', '100', 'between 256 and'],
    ['MODEL_CONTEXT_TOKENS_GPT_4O', 'big', 'must be an integer'],
    ['MODEL_CONTEXT_TOKENS_GPT_4O', '10', 'between 256 and'],
    ['MODEL_CONTEXT_TOKENS_gpt-4o', '8000', 'upper case'],
    ['CONTEXT_COMPRESSION_RATIO', '80%', 'between 0.1 and 1'],
    ['CONTEXT_COMPRESSION_RATIO', '1.5', 'between 0.1 and 1'],
    ['CONTEXT_COMPRESSION_RATIO', '0.05', 'between 0.1 and 1'],
  ])('refuses %s=%s naming the variable', (variable, value, problem) => {
    const problems = problemsOf({ ...valid, [variable]: value });
    expect(Object.keys(problems)).toEqual([variable]);
    expect(problems[variable]).toContain(problem);
  });

  it('never echoes a secret value in its error message', () => {
    const secretKey = `${'A'.repeat(20)}=`;
    try {
      parseConfig({ ...valid, SECRETS_KEY: secretKey, JWT_SECRET: 'tiny-secret' });
    } catch (error) {
      expect((error as Error).message).not.toContain(secretKey);
      expect((error as Error).message).not.toContain('tiny-secret');
      return;
    }
    throw new Error('expected a failure');
  });

  it('keeps secrets out of logs and JSON', () => {
    const config = parseConfig({ ...valid, ADMIN_PASSWORD: 'admin-password-9' });
    const dumped = `${JSON.stringify(config)} ${inspect(config, { depth: 10 })} ${String(config.auth.jwtSecret)}`;
    for (const secret of [valid.JWT_SECRET, valid.SECRETS_KEY, 'admin-password-9', 'db-password']) {
      expect(dumped).not.toContain(secret);
    }
    expect(config.auth.jwtSecret.reveal()).toBe(valid.JWT_SECRET);
  });

  it('parses allowlisted private targets and proxy settings', () => {
    const config = parseConfig({
      ...valid,
      ALLOW_PRIVATE_NETWORK_TARGETS: 'Intranet.example:8080, 10.0.0.5,[::1]:9000',
      TRUST_PROXY: '10.0.0.0/8,loopback',
    });
    expect(config.outbound.allowPrivateNetworkTargets).toEqual([
      'intranet.example:8080',
      '10.0.0.5',
      '[::1]:9000',
    ]);
    expect(config.http.trustProxy).toEqual(['10.0.0.0/8', 'loopback']);
    expect(parseConfig({ ...valid, TRUST_PROXY: '2' }).http.trustProxy).toBe(2);
  });

  it('reads the context window of each model, and the compression ratio', () => {
    const defaults = parseConfig(valid).llm.context;
    expect(defaults.windowTokens).toBe(128_000);
    expect(defaults.compressionRatio).toBe(0.8);
    expect(defaults.windowTokensByModel.size).toBe(0);
    const config = parseConfig({
      ...valid,
      MODEL_CONTEXT_TOKENS: '32000',
      MODEL_CONTEXT_TOKENS_QWEN2_5_7B: '8192',
      CONTEXT_COMPRESSION_RATIO: '0.75',
    });
    expect(config.llm.context.windowTokens).toBe(32_000);
    expect(config.llm.context.compressionRatio).toBe(0.75);
    expect(contextLimitsOf(config, 'qwen2.5:7b')).toEqual({ windowTokens: 8192, compressAboveTokens: 6144 });
    expect(contextLimitsOf(config, 'gpt-4o')).toEqual({ windowTokens: 32_000, compressAboveTokens: 24_000 });
  });
});
