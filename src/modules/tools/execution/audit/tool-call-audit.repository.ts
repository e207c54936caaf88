import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ToolCallEntity } from './tool-call.entity.js';

type ApprovalColumns = 'decision' | 'decidedBy' | 'remembered';

/** A row to write; the approval columns default to "no policy applied". */
export type NewToolCallRecord = Omit<ToolCallEntity, 'id' | 'createdAt' | ApprovalColumns> &
  Partial<Pick<ToolCallEntity, ApprovalColumns>>;

@Injectable()
export class ToolCallAuditRepository {
  constructor(@InjectRepository(ToolCallEntity) private readonly rows: Repository<ToolCallEntity>) {}

  async insertMany(records: NewToolCallRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.rows.createQueryBuilder().insert().values(records).updateEntity(false).execute();
  }

  listForRun(runId: string): Promise<ToolCallEntity[]> {
    return this.rows.find({ where: { runId }, order: { createdAt: 'ASC' } });
  }
}
