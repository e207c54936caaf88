import { DomainError } from '../../common/errors/domain-error.js';
import type { ResourceField } from './config/agent-config.js';

export const AgentsErrors = {
  /** Also for agents the caller may not read: their existence is not revealed. */
  notFound: (slug: string) =>
    new DomainError('not_found', 'agents.not_found', `No agent "${slug}".`, { details: { slug } }),
  manageForbidden: (slug: string) =>
    new DomainError(
      'forbidden',
      'agents.manage_forbidden',
      `You may use but not change the agent "${slug}".`,
      {
        details: { slug },
      },
    ),
  builtinImmutable: (slug: string) =>
    new DomainError(
      'conflict',
      'agents.builtin_immutable',
      `The builtin agent "${slug}" cannot be deleted.`,
      {
        details: { slug },
      },
    ),
  slugTaken: (slug: string) =>
    new DomainError('conflict', 'agents.slug_taken', `The slug "${slug}" is taken.`, { details: { slug } }),
  /** Ids that do not exist and ids the editor may not use look the same. */
  unknownReference: (field: ResourceField, ids: string[]) =>
    new DomainError('unprocessable', 'agents.unknown_reference', `Unknown ${field}: ${ids.join(', ')}.`, {
      details: { field, ids },
    }),
  shareScopeForbidden: (level: string) =>
    new DomainError(
      'forbidden',
      'agents.share_scope_forbidden',
      `Only an admin may share an agent at the ${level} level; share it with named users instead.`,
      { details: { level } },
    ),
  manageScopeOutsideReadScope: () =>
    new DomainError(
      'unprocessable',
      'agents.manage_scope_outside_read_scope',
      'The manage scope must lie inside the read scope.',
    ),
};
