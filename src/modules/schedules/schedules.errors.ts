import { DomainError, declareErrorCodes } from '../../common/errors/index.js';

export const SchedulesErrorCode = {
  NOT_FOUND: 'schedules.not_found',
  UNKNOWN_AGENT: 'schedules.unknown_agent',
  LIMIT_REACHED: 'schedules.limit_reached',
  NOT_STARTED: 'schedules.not_started',
} as const;
export type SchedulesErrorCode = (typeof SchedulesErrorCode)[keyof typeof SchedulesErrorCode];
declareErrorCodes(SchedulesErrorCode);

export const SchedulesErrors = {
  notFound: () => new DomainError('not_found', SchedulesErrorCode.NOT_FOUND, 'Schedule not found.'),
  unknownAgent: (slug: string) =>
    new DomainError(
      'not_found',
      SchedulesErrorCode.UNKNOWN_AGENT,
      'No agent with this slug is available to you.',
      {
        details: { agent_slug: slug },
      },
    ),
  limitReached: (limit: number) =>
    new DomainError(
      'conflict',
      SchedulesErrorCode.LIMIT_REACHED,
      `You already own ${limit} schedules, the most allowed; delete one first.`,
      { details: { limit } },
    ),
  /** Run now started no run: the occurrence is kept, skipped or failed, with its reason. */
  notStarted: (occurrenceId: string, status: string, reason: string | null, slug: string) =>
    new DomainError(
      'conflict',
      SchedulesErrorCode.NOT_STARTED,
      reason === 'agent_unavailable'
        ? `The agent "${slug}" is no longer available to you; the schedule cannot run it.`
        : 'The schedule did not start a run.',
      { details: { occurrence_id: occurrenceId, status, reason, agent_slug: slug } },
    ),
};
