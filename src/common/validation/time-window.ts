import { isISO8601, ValidateBy, type ValidationArguments } from 'class-validator';

/** Which times a `since`/`until` filter accepts: strict ISO-8601, optionally within a range. */
export interface TimeRule {
  test(value: unknown): boolean;
  /** What the 400 says of a refused value (after the property's name). */
  says: string;
}

/** An ISO-8601 time JavaScript can read, so it reaches PostgreSQL as a real timestamp. */
export const ANY_TIME: TimeRule = {
  test: (value) =>
    typeof value === 'string' && isISO8601(value, { strict: true }) && Number.isFinite(Date.parse(value)),
  says: 'must be an ISO-8601 time',
};

/** `ANY_TIME` from `earliest` (included) to `latest` (excluded), in ms since the epoch. */
export function timeBetween(earliest: number, latest: number, says: string): TimeRule {
  return {
    test: (value) => {
      if (!ANY_TIME.test(value)) return false;
      const time = Date.parse(value as string);
      return time >= earliest && time < latest;
    },
    says,
  };
}

/** A `since` or `until` query field that `rule` accepts. */
export const IsWindowTime = (rule: TimeRule) =>
  ValidateBy({
    name: 'isWindowTime',
    validator: {
      validate: (value: unknown) => rule.test(value),
      defaultMessage: (args?: ValidationArguments) => `${args?.property} ${rule.says}`,
    },
  });

/** `until` may not lie before `since` (checked only when both are times `rule` accepts). */
export const NotBeforeSince = (rule: TimeRule) =>
  ValidateBy({
    name: 'notBeforeSince',
    validator: {
      validate: (until: unknown, args?: ValidationArguments) => {
        const since = (args?.object as { since?: unknown } | undefined)?.since;
        if (!rule.test(since) || !rule.test(until)) return true;
        return Date.parse(since as string) <= Date.parse(until as string);
      },
      defaultMessage: () => 'until must not be before since',
    },
  });
