import { truncate } from '../../common/text/truncate.js';
import { DomainError, declareErrorCodes } from '../../common/errors/index.js';

export const KnowledgeErrorCode = {
  /** Also for knowledge bases the caller may not read: their existence is not revealed. */
  NOT_FOUND: 'knowledge.not_found',
  /** A file that does not exist in this knowledge base (or whose knowledge base the caller cannot read). */
  FILE_NOT_FOUND: 'knowledge.file_not_found',
  MANAGE_FORBIDDEN: 'knowledge.manage_forbidden',
  CREATE_FORBIDDEN: 'knowledge.create_forbidden',
  SHARE_SCOPE_FORBIDDEN: 'knowledge.share_scope_forbidden',
  MANAGE_SCOPE_OUTSIDE_READ_SCOPE: 'knowledge.manage_scope_outside_read_scope',
  NO_FILE: 'knowledge.no_file',
  UNSUPPORTED_FILE_TYPE: 'knowledge.unsupported_file_type',
  /** The stored error of a file whose document could not be read (the reason is in the message). */
  PARSE_FAILED: 'knowledge.parse_failed',
  NO_TEXT: 'knowledge.no_text',
  /** Knowledge is switched off (`PUT /api/system/settings/knowledge {enabled:false}`). */
  UNAVAILABLE: 'knowledge.unavailable',
  EMBEDDINGS_FAILED: 'knowledge.embeddings_failed',
} as const;
export type KnowledgeErrorCode = (typeof KnowledgeErrorCode)[keyof typeof KnowledgeErrorCode];
declareErrorCodes(KnowledgeErrorCode);

export const KnowledgeErrors = {
  notFound: (kbId: string) =>
    new DomainError('not_found', KnowledgeErrorCode.NOT_FOUND, `No knowledge base "${truncate(kbId)}".`, {
      details: { kb_id: truncate(kbId) },
    }),
  fileNotFound: (fileId: string) =>
    new DomainError('not_found', KnowledgeErrorCode.FILE_NOT_FOUND, `No file "${truncate(fileId)}".`, {
      details: { file_id: truncate(fileId) },
    }),
  manageForbidden: (kbId: string) =>
    new DomainError(
      'forbidden',
      KnowledgeErrorCode.MANAGE_FORBIDDEN,
      `You may read but not change the knowledge base "${kbId}".`,
      { details: { kb_id: kbId } },
    ),
  createForbidden: () =>
    new DomainError('forbidden', KnowledgeErrorCode.CREATE_FORBIDDEN, 'Only admins create knowledge bases.'),
  shareScopeForbidden: (level: string) =>
    new DomainError(
      'forbidden',
      KnowledgeErrorCode.SHARE_SCOPE_FORBIDDEN,
      `Only admins may share with the "${level}" level; name users instead.`,
      { details: { level } },
    ),
  manageScopeOutsideReadScope: () =>
    new DomainError(
      'unprocessable',
      KnowledgeErrorCode.MANAGE_SCOPE_OUTSIDE_READ_SCOPE,
      'The manage scope must lie inside the read scope.',
    ),
  noFile: () =>
    new DomainError('invalid', KnowledgeErrorCode.NO_FILE, 'The upload carries no file in the field "file".'),
  unsupportedFileType: (filename: string, supported: readonly string[]) =>
    new DomainError(
      'unprocessable',
      KnowledgeErrorCode.UNSUPPORTED_FILE_TYPE,
      `"${truncate(filename)}" is not a supported document (${supported.join(', ')}).`,
      { details: { filename: truncate(filename), supported } },
    ),
  parseFailed: (reason: string) =>
    new DomainError(
      'unprocessable',
      KnowledgeErrorCode.PARSE_FAILED,
      `The document could not be read: ${truncate(reason)}`,
    ),
  noText: () =>
    new DomainError('unprocessable', KnowledgeErrorCode.NO_TEXT, 'The document holds no text to index.'),
  unavailable: () =>
    new DomainError('unavailable', KnowledgeErrorCode.UNAVAILABLE, 'Knowledge bases are switched off.'),
  embeddingsFailed: (reason: string) =>
    new DomainError(
      'unavailable',
      KnowledgeErrorCode.EMBEDDINGS_FAILED,
      `The embeddings service failed: ${truncate(reason)}`,
    ),
};

/** Codes of the builtin knowledge MCP endpoint and its tools (`mcp-server/`, `delegation/`). */
export const KnowledgeMcpErrorCode = {
  /** No delegation token, or one that is forged, expired or meant for another audience (401). */
  DELEGATION_INVALID: 'knowledge.delegation_invalid',
  /** A `Host` or `Origin` the endpoint does not answer (DNS rebinding, browsers) (403). */
  REQUEST_NOT_ALLOWED: 'knowledge.request_not_allowed',
  /** A file whose document is not parsed yet (or failed to parse): nothing to read. */
  FILE_NOT_READY: 'knowledge.file_not_ready',
  INVALID_PATTERN: 'knowledge.invalid_pattern',
  /** A regular expression that did not finish within its time budget. */
  SEARCH_TIMEOUT: 'knowledge.search_timeout',
} as const;
export type KnowledgeMcpErrorCode = (typeof KnowledgeMcpErrorCode)[keyof typeof KnowledgeMcpErrorCode];
declareErrorCodes(KnowledgeMcpErrorCode);

export const KnowledgeMcpErrors = {
  delegationInvalid: () =>
    new DomainError(
      'unauthenticated',
      KnowledgeMcpErrorCode.DELEGATION_INVALID,
      'A valid knowledge delegation token is required.',
    ),
  requestNotAllowed: (header: 'host' | 'origin') =>
    new DomainError(
      'forbidden',
      KnowledgeMcpErrorCode.REQUEST_NOT_ALLOWED,
      `The ${header === 'host' ? 'Host' : 'Origin'} of this request is not allowed.`,
      { details: { header } },
    ),
  fileNotReady: (fileId: string, status: string) =>
    new DomainError(
      'conflict',
      KnowledgeMcpErrorCode.FILE_NOT_READY,
      `The file "${fileId}" has no readable document yet (status ${status}).`,
      { details: { file_id: fileId, status } },
    ),
  invalidPattern: (pattern: string, reason: string) =>
    new DomainError(
      'invalid',
      KnowledgeMcpErrorCode.INVALID_PATTERN,
      `"${truncate(pattern)}" is not a valid regular expression: ${reason} (set use_regex: false to search plain text)`,
      { details: { pattern: truncate(pattern) } },
    ),
  searchTimeout: (budgetMs: number) =>
    new DomainError(
      'timeout',
      KnowledgeMcpErrorCode.SEARCH_TIMEOUT,
      `The regular expression search did not finish within ${budgetMs} ms; simplify the pattern.`,
      { details: { budget_ms: budgetMs } },
    ),
};
