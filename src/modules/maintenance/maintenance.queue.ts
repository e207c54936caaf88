export const MAINTENANCE_QUEUE = 'maintenance';

export const MaintenanceJobs = {
  purgeStaleApiKeys: 'api-keys.purge-stale',
  purgeExpiredImprovementMarks: 'improvement-marks.purge-expired',
  pruneCheckpoints: 'checkpoints.prune',
  purgeExpiredSkillDrafts: 'skill-drafts.purge-expired',
} as const;
