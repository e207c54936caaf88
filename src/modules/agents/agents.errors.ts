import { DomainError, declareErrorCodes } from '../../common/errors/index.js';
import type { ResourceField } from './config/agent-config.js';

export const AgentsErrorCode = {
  NOT_FOUND: 'agents.not_found',
  MANAGE_FORBIDDEN: 'agents.manage_forbidden',
  BUILTIN_IMMUTABLE: 'agents.builtin_immutable',
  SLUG_TAKEN: 'agents.slug_taken',
  UNKNOWN_REFERENCE: 'agents.unknown_reference',
  SHARE_SCOPE_FORBIDDEN: 'agents.share_scope_forbidden',
  MANAGE_SCOPE_OUTSIDE_READ_SCOPE: 'agents.manage_scope_outside_read_scope',
  /** A run's user may no longer use its agent: the run ends (see `RunAuthorization`). */
  ACCESS_REVOKED: 'agents.access_revoked',
} as const;
export type AgentsErrorCode = (typeof AgentsErrorCode)[keyof typeof AgentsErrorCode];
declareErrorCodes(AgentsErrorCode);

export const AgentsErrors = {
  /** Also for agents the caller may not read: their existence is not revealed. */
  notFound: (slug: string) =>
    new DomainError('not_found', AgentsErrorCode.NOT_FOUND, `No agent "${slug}".`, { details: { slug } }),
  manageForbidden: (slug: string) =>
    new DomainError(
      'forbidden',
      AgentsErrorCode.MANAGE_FORBIDDEN,
      `You may use but not change the agent "${slug}".`,
      {
        details: { slug },
      },
    ),
  builtinImmutable: (slug: string) =>
    new DomainError(
      'conflict',
      AgentsErrorCode.BUILTIN_IMMUTABLE,
      `The builtin agent "${slug}" cannot be deleted.`,
      {
        details: { slug },
      },
    ),
  slugTaken: (slug: string) =>
    new DomainError('conflict', AgentsErrorCode.SLUG_TAKEN, `The slug "${slug}" is taken.`, {
      details: { slug },
    }),
  /** Ids that do not exist and ids the editor may not use look the same. */
  unknownReference: (field: ResourceField, ids: string[]) =>
    new DomainError(
      'unprocessable',
      AgentsErrorCode.UNKNOWN_REFERENCE,
      `Unknown ${field}: ${ids.join(', ')}.`,
      {
        details: { field, ids },
      },
    ),
  shareScopeForbidden: (level: string) =>
    new DomainError(
      'forbidden',
      AgentsErrorCode.SHARE_SCOPE_FORBIDDEN,
      `Only an admin may share an agent at the ${level} level; share it with named users instead.`,
      { details: { level } },
    ),
  manageScopeOutsideReadScope: () =>
    new DomainError(
      'unprocessable',
      AgentsErrorCode.MANAGE_SCOPE_OUTSIDE_READ_SCOPE,
      'The manage scope must lie inside the read scope.',
    ),
};
