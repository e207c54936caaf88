import { ConfigValidationError } from '../config/config-error.js';
import type { AppConfig } from '../config/app-config.js';
import { loadConfigFromProcess } from '../config/load-config.js';
import { startTracing } from '../observability/tracing/index.js';

/**
 * Loads the configuration and starts a process role. A bad configuration stops the process with a
 * message naming each variable (exit code 78, EX_CONFIG); any other boot failure exits 1. Tracing starts
 * first: `start` must load the role's code (Nest, Express, the HTTP clients) only after it.
 */
export function runEntrypoint(start: (config: AppConfig) => Promise<unknown>): void {
  let config: AppConfig;
  try {
    config = loadConfigFromProcess();
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  startTracing(config)
    .then(() => start(config))
    .catch((error: unknown) => {
      process.stderr.write(
        `Startup failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    });
}
