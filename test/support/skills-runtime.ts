import type { RecordedRequest } from './fake-openai/fake-openai-script';

/** The system message a model request started with ('' when there was none). */
export function systemPrompt(request: RecordedRequest): string {
  const first = request.body.messages[0];
  return first?.role === 'system' && typeof first.content === 'string' ? first.content : '';
}

export const sharedSkillPath = (slug: string) => `/home/gem/skills/${slug}/SKILL.md`;
export const personalSkillPath = (slug: string) => `/home/gem/user-data/agents/skills/${slug}/SKILL.md`;
