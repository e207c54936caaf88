import type { RunConfigSnapshot } from '../../assembly/run-config-snapshot.js';
import type { ModelToolCall } from './session-scope.js';

const READ_FILE = 'read_file';

/**
 * The skill a tool call activates: a successful `read_file` whose path is exactly the SKILL.md path of
 * one of the run's effective skills. Anything else (a failed read, another file, a skill outside the
 * run) activates nothing.
 */
export function skillActivatedBy(
  snapshot: RunConfigSnapshot,
  call: ModelToolCall,
  isError: boolean,
): string | null {
  if (call.name !== READ_FILE || isError) return null;
  const args = call.args as Record<string, unknown> | undefined;
  const path = args?.file_path;
  if (typeof path !== 'string') return null;
  return snapshot.effective_skills?.find((skill) => skill.path === path)?.slug ?? null;
}

/** Whether stored tool message content is a failed call's (`{"error":{…}}`, as the ToolExecutor writes it). */
export function isErrorContent(content: string): boolean {
  return content.startsWith('{"error":{');
}
