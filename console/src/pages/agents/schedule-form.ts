import type { ScheduleFields } from '../../api/types';

/** The reader's own time zone, the natural default for a new schedule. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Every IANA name the browser knows, for suggestions (the service decides what it accepts). */
export function knownTimeZones(): string[] {
  const intl = Intl as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? [localTimeZone()];
}

export function newScheduleFields(): ScheduleFields {
  return { cron: '0 9 * * 1-5', timezone: localTimeZone(), input: '', enabled: true };
}

/** What is missing before the form can be sent (the service checks the rest: cron, zone, interval). */
export function missingScheduleFields(fields: ScheduleFields): ('cron' | 'timezone' | 'input')[] {
  return (['cron', 'timezone', 'input'] as const).filter((key) => fields[key].trim() === '');
}
