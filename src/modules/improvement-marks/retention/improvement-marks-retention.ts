import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { ImprovementMarksRepository } from '../improvement-marks.repository.js';

/** Marks are review leads, kept `IMPROVEMENT_MARKS_RETENTION_DAYS` days, then deleted by the maintenance queue. */
@Injectable()
export class ImprovementMarksRetention {
  constructor(
    private readonly marks: ImprovementMarksRepository,
    private readonly config: AppConfig,
  ) {}

  /** Deletes marks older than the retention period; returns how many. */
  purgeExpired(days = this.config.improvementMarks.retentionDays): Promise<number> {
    return this.marks.deleteOlderThan(days);
  }
}
