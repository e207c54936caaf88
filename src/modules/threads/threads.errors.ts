import { DomainError } from '../../common/errors/domain-error.js';

export const ThreadsErrors = {
  notFound: () => new DomainError('not_found', 'threads.not_found', 'Thread not found.'),
  unknownAgent: (slug: string) =>
    new DomainError(
      'unprocessable',
      'threads.unknown_agent',
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
      'threads.agent_deleted',
      `The agent "${agentSlug}" of this thread was deleted; start a new thread to go on.`,
      { details: { thread_id: threadId, agent_slug: agentSlug } },
    ),
  noFile: () =>
    new DomainError('invalid', 'common.validation_failed', 'Invalid request: file', {
      details: { fields: [{ field: 'file', messages: ['a multipart file field named "file" is required'] }] },
    }),
};
