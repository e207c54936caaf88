import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { UserAccounts } from '../../users/index.js';
import { KnowledgeBasesRepository } from '../storage/knowledge-bases.repository.js';
import type { KnowledgeBaseEntity } from '../storage/knowledge-base.entity.js';
import { canReadKb } from './kb-permission.js';

/** A knowledge base as callers outside the HTTP API see it (the MCP tools, agents). */
export interface KbSummary {
  kbId: string;
  name: string;
  description: string;
}

const summaryOf = (row: KnowledgeBaseEntity): KbSummary => ({
  kbId: row.id,
  name: row.name,
  description: row.description,
});

/**
 * "Which knowledge bases may this user read?", answered from the database at every call: the account is
 * re-read each time, so a disabled (or deleted) user gets nothing, and a share change applies at once.
 */
@Injectable()
export class KnowledgeAccess {
  constructor(
    private readonly users: UserAccounts,
    private readonly kbs: KnowledgeBasesRepository,
  ) {}

  async readableKbs(userId: string): Promise<KbSummary[]> {
    const actor = isUUID(userId) ? await this.users.activeActor(userId) : null;
    if (actor === null) return [];
    return (await this.kbs.listReadable(actor)).map(summaryOf);
  }

  /** Null when the knowledge base does not exist, the user may not read it, or the user is inactive. */
  async readableKb(userId: string, kbId: string): Promise<KbSummary | null> {
    if (!isUUID(userId) || !isUUID(kbId)) return null;
    const actor = await this.users.activeActor(userId);
    if (actor === null) return null;
    const row = await this.kbs.findById(kbId);
    return row !== null && canReadKb(actor, row) ? summaryOf(row) : null;
  }
}
