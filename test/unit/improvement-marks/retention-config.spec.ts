import { randomBytes } from 'node:crypto';
import { ConfigValidationError } from '../../../src/config/config-error';
import { parseConfig } from '../../../src/config/parse-config';

const valid = {
  DATABASE_URL: 'postgres://app:db-password@127.0.0.1:5432/yuxi',
  REDIS_URL: 'redis://127.0.0.1:6379/0',
  JWT_SECRET: 'j'.repeat(40),
  SECRETS_KEY: randomBytes(32).toString('base64'),
};

function problemOf(value: string): string | undefined {
  try {
    parseConfig({ ...valid, IMPROVEMENT_MARKS_RETENTION_DAYS: value });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigValidationError);
    return (error as ConfigValidationError).problems.find(
      (p) => p.variable === 'IMPROVEMENT_MARKS_RETENTION_DAYS',
    )?.problem;
  }
  return undefined;
}

describe('IMPROVEMENT_MARKS_RETENTION_DAYS', () => {
  it('keeps marks 365 days unless told otherwise', () => {
    expect(parseConfig(valid).improvementMarks).toEqual({ retentionDays: 365 });
    expect(
      parseConfig({ ...valid, IMPROVEMENT_MARKS_RETENTION_DAYS: '' }).improvementMarks.retentionDays,
    ).toBe(365);
  });

  it('accepts whole days from 1 to 36500', () => {
    for (const days of [1, 30, 36_500]) {
      const config = parseConfig({ ...valid, IMPROVEMENT_MARKS_RETENTION_DAYS: String(days) });
      expect(config.improvementMarks.retentionDays).toBe(days);
    }
  });

  it('refuses values outside 1..36500 or that are not integers, naming the variable', () => {
    expect(problemOf('0')).toBe('must be between 1 and 36500, got 0');
    expect(problemOf('36501')).toBe('must be between 1 and 36500, got 36501');
    expect(problemOf('7.5')).toBe('must be an integer, got "7.5"');
    expect(problemOf('-3')).toBe('must be an integer, got "-3"');
    expect(problemOf('forever')).toBe('must be an integer, got "forever"');
  });
});
