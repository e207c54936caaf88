import { Injectable } from '@nestjs/common';
import { KnowledgeAccess, type KbSummary } from '../access/knowledge-access.js';
import type { VerifiedDelegation } from '../delegation/knowledge-delegation.js';
import { KnowledgeErrors } from '../knowledge.errors.js';
import { KbDocumentsRepository, type KbDocument } from './kb-documents.repository.js';

/**
 * What one tool call may reach, decided from the database at every call: the knowledge bases the user
 * may read now (the account re-read: a disabled user reaches nothing), narrowed to the run's snapshot
 * carried in the delegation. Whatever is outside is "not found", exactly as for what does not exist.
 */
@Injectable()
export class KnowledgeScope {
  constructor(
    private readonly access: KnowledgeAccess,
    private readonly documents: KbDocumentsRepository,
  ) {}

  async visibleKbs(grant: VerifiedDelegation): Promise<KbSummary[]> {
    const granted = new Set(grant.kbIds);
    if (granted.size === 0) return [];
    return (await this.access.readableKbs(grant.userId)).filter((kb) => granted.has(kb.kbId));
  }

  async kb(grant: VerifiedDelegation, kbId: string): Promise<KbSummary> {
    const kb = grant.kbIds.includes(kbId) ? await this.access.readableKb(grant.userId, kbId) : null;
    if (kb === null) throw KnowledgeErrors.notFound(kbId);
    return kb;
  }

  async document(grant: VerifiedDelegation, kbId: string, fileId: string): Promise<KbDocument> {
    await this.kb(grant, kbId);
    const document = await this.documents.document(kbId, fileId);
    if (document === null) throw KnowledgeErrors.fileNotFound(fileId);
    return document;
  }
}
