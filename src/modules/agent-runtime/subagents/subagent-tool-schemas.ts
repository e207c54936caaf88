import { z } from 'zod';

export const SUBAGENT_START = 'subagent_start';
export const SUBAGENT_STATUS = 'subagent_status';
export const SUBAGENT_AWAIT = 'subagent_await';
export const SUBAGENT_CANCEL = 'subagent_cancel';

/** How long `subagent_await` waits when the model names no timeout, and the longest it may ask for. */
export const DEFAULT_AWAIT_SECONDS = 600;
export const MAX_AWAIT_SECONDS = 3600;

const id = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, `a ${what} id (UUID)`);

export const subagentStartSchema = z.strictObject({
  description: z
    .string()
    .trim()
    .min(1)
    .max(20_000)
    .describe('The task, complete and self-contained: it becomes the subagent’s user message'),
  subagent_slug: z.string().trim().min(1).max(64).describe('One of the callable subagents'),
  thread_id: id('thread')
    .nullish()
    .describe('To continue an earlier task: the thread_id its subagent_start returned'),
});

export const subagentRunSchema = z.strictObject({
  run_id: id('run').describe('A run_id from subagent_start'),
});

export const subagentAwaitSchema = z.strictObject({
  run_id: id('run').describe('A run_id from subagent_start'),
  timeout_s: z
    .number()
    .int()
    .min(1)
    .max(MAX_AWAIT_SECONDS)
    .optional()
    .describe(`Seconds to wait at most (default ${DEFAULT_AWAIT_SECONDS})`),
});

export type SubagentStartArgs = z.infer<typeof subagentStartSchema>;
export type SubagentRunArgs = z.infer<typeof subagentRunSchema>;
export type SubagentAwaitArgs = z.infer<typeof subagentAwaitSchema>;
