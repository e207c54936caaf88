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
  noFile: () =>
    new DomainError('invalid', 'common.validation_failed', 'Invalid request: file', {
      details: { fields: [{ field: 'file', messages: ['a multipart file field named "file" is required'] }] },
    }),
};
