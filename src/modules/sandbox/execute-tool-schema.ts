import { z } from 'zod';

export const EXECUTE_TOOL_NAME = 'execute';

export const executeSchema = z
  .object({
    command: z.string().min(1).max(20_000).describe('The command, run by /bin/sh -c in the workdir.'),
    timeout_s: z
      .number()
      .int()
      .min(1)
      .max(600)
      .optional()
      .describe('Seconds before the command is killed (default: the deployment’s, 180).'),
  })
  .strict();
export type ExecuteArgs = z.infer<typeof executeSchema>;

export const EXECUTE_TOOL_DESCRIPTION = [
  'Runs a shell command in an isolated sandbox and returns {exit_code, stdout, stderr, truncated, timed_out, duration_ms}.',
  'The working directory is the thread workdir; /home/gem/user-data is your workspace (read-write: the changes',
  'are kept when the command ends, if they fit your quota), /home/gem/skills/<slug> holds the skills of this run',
  '(read-only: run their scripts from there), /tmp is private. There is no network. sh, python3, node and',
  'coreutils are available. A non-zero exit code is a normal result. A command that is killed (timeout, a limit)',
  'keeps none of its file changes.',
].join(' ');
