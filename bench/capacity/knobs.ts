/** The capacity bench's cases, knobs (`BENCH_CAPACITY_*`) and the inputs they share. */
export const CAPACITY_CASES = ['burst', 'open-loop', 'cpu', 'sequential', 'sse'] as const;

export type CapacityCase = (typeof CAPACITY_CASES)[number];

export const TOOL = { name: 'write_file', args: { file_path: 'bench.txt', content: 'bench' } };

export const ONE_TOOL_INPUT = 'Write the bench file once, then answer.';

export const THREE_TOOLS_INPUT = 'Write the bench file three times.';

/**
 * Set for every case: the users are made before the clock starts, and at the default scrypt cost
 * (2^17, two at a time) 500 users and their logins take minutes. Only password hashing changes.
 */
export const SETUP_ENV = { PASSWORD_HASH_LOG_N: '14' };

export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

export interface CapacityKnobs {
  conversations: number;
  rate: number;
  seconds: number;
  streams: number;
  modelDelayMs: number;
  cpuRuns: number;
  drainSeconds: number;
  timeoutSeconds: number;
  /** BENCH_CAPACITY_APP_ENV: more environment for every app process. */
  appEnv: Record<string, string>;
}

export function capacityKnobs(): CapacityKnobs {
  const rawEnv = process.env.BENCH_CAPACITY_APP_ENV;
  const appEnv = rawEnv === undefined || rawEnv === '' ? {} : (JSON.parse(rawEnv) as unknown);
  if (typeof appEnv !== 'object' || appEnv === null || Array.isArray(appEnv))
    throw new Error('BENCH_CAPACITY_APP_ENV must be a JSON object');
  return {
    conversations: envNumber('BENCH_CAPACITY_CONVERSATIONS', 500),
    rate: envNumber('BENCH_CAPACITY_RATE', 40),
    seconds: envNumber('BENCH_CAPACITY_SECONDS', 60),
    streams: envNumber('BENCH_CAPACITY_STREAMS', 5000),
    modelDelayMs: envNumber('BENCH_CAPACITY_MODEL_MS', 2000),
    cpuRuns: envNumber('BENCH_CAPACITY_CPU_RUNS', 200),
    drainSeconds: envNumber('BENCH_CAPACITY_DRAIN_SECONDS', 120),
    timeoutSeconds: envNumber('BENCH_CAPACITY_TIMEOUT_SECONDS', 600),
    appEnv: Object.fromEntries(Object.entries(appEnv).map(([k, v]) => [k, String(v)])),
  };
}
