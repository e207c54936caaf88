import { truncate } from '../../../common/text/truncate.js';
import type { ScheduleEntity } from '../schedule.entity.js';

const INPUT_CHARS = 60;

/** "Scheduled: <input, shortened> (2026-03-29 08:00 Europe/Berlin)": the period in the schedule's zone. */
export function threadTitleOf(schedule: Pick<ScheduleEntity, 'input' | 'timezone'>, period: Date): string {
  const local = new Intl.DateTimeFormat('sv-SE', {
    timeZone: schedule.timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(period);
  const input = schedule.input.trim().replace(/\s+/g, ' ');
  return `Scheduled: ${truncate(input, INPUT_CHARS)} (${local} ${schedule.timezone})`;
}
