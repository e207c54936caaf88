import type { Environment } from './parse-config.js';

export const CONTEXT_TOKENS_MIN = 256;
export const CONTEXT_TOKENS_MAX = 100_000_000;
const MODEL_CONTEXT_PREFIX = 'MODEL_CONTEXT_TOKENS_';

/** The key of a model in `MODEL_CONTEXT_TOKENS_<MODEL>`: upper-cased, every other character `_`. */
export function modelContextKey(model: string): string {
  return model.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/** `MODEL_CONTEXT_TOKENS_<MODEL>` variables: each an integer like `MODEL_CONTEXT_TOKENS`. */
export function parseModelContextWindows(env: Environment): {
  windows: Map<string, number>;
  problems: { variable: string; problem: string }[];
} {
  const windows = new Map<string, number>();
  const problems: { variable: string; problem: string }[] = [];
  for (const [variable, raw] of Object.entries(env)) {
    if (!variable.startsWith(MODEL_CONTEXT_PREFIX) || raw === undefined) continue;
    const key = variable.slice(MODEL_CONTEXT_PREFIX.length);
    const value = raw.trim();
    if (key === '' || !/^[A-Z0-9_]+$/.test(key))
      problems.push({ variable, problem: 'must name a model in upper case, other characters as _' });
    else if (!/^\d+$/.test(value)) problems.push({ variable, problem: `must be an integer, got "${value}"` });
    else if (Number(value) < CONTEXT_TOKENS_MIN || Number(value) > CONTEXT_TOKENS_MAX)
      problems.push({
        variable,
        problem: `must be between ${CONTEXT_TOKENS_MIN} and ${CONTEXT_TOKENS_MAX}, got ${value}`,
      });
    else windows.set(key, Number(value));
  }
  return { windows, problems };
}
