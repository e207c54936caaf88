import { randomBytes } from 'node:crypto';
import { ConfigValidationError } from '../../../src/config/config-error';
import { parseConfig } from '../../../src/config/parse-config';

const valid = {
  DATABASE_URL: 'postgres://app:db-password@127.0.0.1:5432/yuxi',
  REDIS_URL: 'redis://127.0.0.1:6379/0',
  JWT_SECRET: 'j'.repeat(40),
  SECRETS_KEY: randomBytes(32).toString('base64'),
};

function problemOf(variable: string, value: string): string | undefined {
  try {
    parseConfig({ ...valid, [variable]: value });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigValidationError);
    return (error as ConfigValidationError).problems.find((p) => p.variable === variable)?.problem;
  }
  return undefined;
}

describe('CHECKPOINT_PRUNE_INTERVAL_SECONDS and CHECKPOINT_PRUNE_BATCH', () => {
  it('prune every 300 s, 200 threads per batch, unless told otherwise', () => {
    const { runtime } = parseConfig(valid);
    expect([runtime.checkpointPruneSeconds, runtime.checkpointPruneBatch]).toEqual([300, 200]);
    const set = parseConfig({
      ...valid,
      CHECKPOINT_PRUNE_INTERVAL_SECONDS: '60',
      CHECKPOINT_PRUNE_BATCH: '10',
    }).runtime;
    expect([set.checkpointPruneSeconds, set.checkpointPruneBatch]).toEqual([60, 10]);
  });

  it('refuses values out of range, naming the variable', () => {
    expect(problemOf('CHECKPOINT_PRUNE_INTERVAL_SECONDS', '9')).toBe('must be between 10 and 86400, got 9');
    expect(problemOf('CHECKPOINT_PRUNE_INTERVAL_SECONDS', '86401')).toBe(
      'must be between 10 and 86400, got 86401',
    );
    expect(problemOf('CHECKPOINT_PRUNE_BATCH', '0')).toBe('must be between 1 and 10000, got 0');
    expect(problemOf('CHECKPOINT_PRUNE_BATCH', '1.5')).toBeDefined();
  });
});
