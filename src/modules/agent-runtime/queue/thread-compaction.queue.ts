import { z } from 'zod';
import { USER_ROLES } from '../../../common/auth/user-role.js';

export const THREAD_COMPACTION_QUEUE = 'thread-compaction';
export const COMPACT_THREAD_JOB = 'compact-thread';

/** A compaction asked for by the thread's owner (whose workdir receives the summary). */
export const compactThreadJobSchema = z.object({
  threadId: z.string().uuid(),
  agentSlug: z.string().min(1),
  user: z.object({ id: z.string().uuid(), role: z.enum(USER_ROLES), departmentId: z.string().uuid() }),
  requestId: z.string().nullish(),
});

export type CompactThreadJob = z.infer<typeof compactThreadJobSchema>;
