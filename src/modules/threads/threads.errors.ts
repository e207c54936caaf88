import { CommonErrorCode, DomainError, declareErrorCodes } from '../../common/errors/index.js';

/** The multipart limits an upload can exceed, as named in `details.limit`. */
export type UploadFormLimit = 'fields' | 'field_size' | 'field_name_size' | 'parts';

export const ThreadsErrorCode = {
  NOT_FOUND: 'threads.not_found',
  UNKNOWN_AGENT: 'threads.unknown_agent',
  AGENT_DELETED: 'threads.agent_deleted',
  RUN_ACTIVE: 'threads.run_active',
} as const;
export type ThreadsErrorCode = (typeof ThreadsErrorCode)[keyof typeof ThreadsErrorCode];
declareErrorCodes(ThreadsErrorCode);

export const ThreadsErrors = {
  notFound: () => new DomainError('not_found', ThreadsErrorCode.NOT_FOUND, 'Thread not found.'),
  unknownAgent: (slug: string) =>
    new DomainError(
      'unprocessable',
      ThreadsErrorCode.UNKNOWN_AGENT,
      'No agent with this slug is available to you.',
      {
        details: { field: 'agent_slug', ids: [slug] },
      },
    ),
  /**
   * 409, not 422: the request names nothing unknown; the thread's state (its agent is gone) forbids
   * new runs, whatever agent now holds the slug.
   */
  agentDeleted: (threadId: string, agentSlug: string) =>
    new DomainError(
      'conflict',
      ThreadsErrorCode.AGENT_DELETED,
      `The agent "${agentSlug}" of this thread was deleted; start a new thread to go on.`,
      { details: { thread_id: threadId, agent_slug: agentSlug } },
    ),
  /** The thread's run could still write into its workdir: it must end (or be cancelled) first. */
  runActive: (threadId: string, runId: string, status: string) =>
    new DomainError(
      'conflict',
      ThreadsErrorCode.RUN_ACTIVE,
      'This thread has a run that has not finished; cancel it (or wait for it to end), then delete the thread.',
      { details: { thread_id: threadId, run_id: runId, status } },
    ),
  noFile: () =>
    new DomainError('invalid', CommonErrorCode.VALIDATION_FAILED, 'Invalid request: file', {
      details: { fields: [{ field: 'file', messages: ['a multipart file field named "file" is required'] }] },
    }),
  unexpectedFile: (field: string) =>
    new DomainError('invalid', CommonErrorCode.VALIDATION_FAILED, `Invalid request: ${field}`, {
      details: {
        fields: [{ field, messages: ['an upload carries exactly one file, in the field named "file"'] }],
      },
    }),
  uploadFormTooLarge: (limit: UploadFormLimit, max: number) =>
    new DomainError(
      'too_large',
      CommonErrorCode.PAYLOAD_TOO_LARGE,
      `The upload form exceeds its ${limit.replace(/_/g, ' ')} limit (${max}).`,
      { details: { limit, max } },
    ),
};
