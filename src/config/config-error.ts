/** Thrown at boot when the environment is missing or malformed; the message names every bad variable. */
export class ConfigValidationError extends Error {
  constructor(readonly problems: readonly { variable: string; problem: string }[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p.variable}: ${p.problem}`).join('\n')}`);
    this.name = 'ConfigValidationError';
  }
}
