import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { AppConfig } from './app-config.js';
import { ConfigValidationError } from './config-error.js';
import { parseConfig, type Environment } from './parse-config.js';

/**
 * The process environment over an optional `.env` file in the working directory (real variables win).
 * The only place in the code base that reads `process.env`.
 */
function readEnvironment(): Environment {
  const file = resolve(process.cwd(), '.env');
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {};
  return { ...fromFile, ...process.env };
}

export function loadConfigFromProcess(): AppConfig {
  return parseConfig(readEnvironment());
}

/** For the TypeORM CLI, which needs nothing but the database. */
export function loadDatabaseUrlFromProcess(): string {
  const url = readEnvironment().DATABASE_URL;
  if (url === undefined || url.trim() === '') {
    throw new ConfigValidationError([{ variable: 'DATABASE_URL', problem: 'is required' }]);
  }
  return url;
}
