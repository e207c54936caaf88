import { DomainError, declareErrorCodes } from '../../../common/errors/index.js';

export const SubagentsErrorCode = {
  /** The slug is not among the subagents this run may call (its selection ∩ what the user may see). */
  UNKNOWN_SUBAGENT: 'subagents.unknown_subagent',
  /** No child run of the current parent run has this id (another parent's child, any other run). */
  RUN_NOT_FOUND: 'subagents.run_not_found',
  /** The thread to continue is not a child thread of this conversation for this subagent. */
  THREAD_NOT_FOUND: 'subagents.thread_not_found',
  /** The parent run already has `SUBAGENT_MAX_ACTIVE_CHILDREN` children active. */
  LIMIT_REACHED: 'subagents.limit_reached',
} as const;
export type SubagentsErrorCode = (typeof SubagentsErrorCode)[keyof typeof SubagentsErrorCode];
declareErrorCodes(SubagentsErrorCode);

export const SubagentsErrors = {
  unknownSubagent: (slug: string, callable: readonly string[]) =>
    new DomainError(
      'not_found',
      SubagentsErrorCode.UNKNOWN_SUBAGENT,
      `This agent cannot call a subagent "${slug}".`,
      { details: { subagent_slug: slug, callable: [...callable] } },
    ),
  runNotFound: () =>
    new DomainError(
      'not_found',
      SubagentsErrorCode.RUN_NOT_FOUND,
      'No subagent run with this id was started by this run.',
    ),
  limitReached: (limit: number) =>
    new DomainError(
      'conflict',
      SubagentsErrorCode.LIMIT_REACHED,
      `This run already has ${limit} subagent runs active: await or cancel one before starting another.`,
      { details: { limit, scope: 'parent_run' } },
    ),
  threadNotFound: () =>
    new DomainError(
      'not_found',
      SubagentsErrorCode.THREAD_NOT_FOUND,
      'No child thread with this id belongs to this conversation and subagent.',
    ),
};
