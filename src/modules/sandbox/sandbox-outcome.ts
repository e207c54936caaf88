import type { SandboxOutcomeLabel } from '../../observability/metrics/index.js';
import type { SandboxResult } from './sandbox.port.js';

/** How a command that ran ended, as the metrics count it (a kill without a limit is a cancel). */
export function sandboxOutcomeOf(result: SandboxResult): SandboxOutcomeLabel {
  if (result.overQuota) return 'over_quota';
  if (result.timedOut) return 'timeout';
  if (result.exitCode === null) return 'cancelled';
  return result.exitCode === 0 ? 'ok' : 'nonzero_exit';
}
