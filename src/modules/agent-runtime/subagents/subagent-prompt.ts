import type { RunConfigSnapshot } from '../assembly/run-config-snapshot.js';

/**
 * The system prompt a run's model gets: the agent's own, then (when it may delegate) the subagents it
 * may call, each with its description, and how the subagent tools are meant to be used.
 */
export function systemPromptOf(snapshot: RunConfigSnapshot): string {
  const callable = snapshot.subagent_profiles ?? [];
  if (snapshot.agent.is_subagent || callable.length === 0) return snapshot.system_prompt;
  const lines = callable.map(
    (profile) =>
      `- ${profile.slug} (${profile.name})${profile.description === '' ? '' : `: ${profile.description}`}`,
  );
  const section = [
    'Subagents you can delegate to with subagent_start (subagent_slug is one of):',
    ...lines,
    'Start every independent task first, then wait for each with subagent_await(run_id); pass a ' +
      'returned thread_id to subagent_start to continue that task. Subagents share your files.',
  ].join('\n');
  return snapshot.system_prompt === '' ? section : `${snapshot.system_prompt}\n\n${section}`;
}
