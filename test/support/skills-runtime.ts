import type { RecordedRequest } from './fake-openai/fake-openai-script';
import { auth } from './runs/run-helpers';
import type { TestContext, TestUser } from './test-app';

/** An agent of `owner` with the given config fields; returns its slug. */
export async function newAgent(
  ctx: TestContext,
  owner: TestUser,
  name: string,
  config: Record<string, unknown>,
): Promise<string> {
  const res = await ctx.http.post('/api/agents').set(auth(owner)).send({ name, config });
  if (res.status !== 201) throw new Error(`agent not created: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { slug: string }).slug;
}

/** The system message a model request started with ('' when there was none). */
export function systemPrompt(request: RecordedRequest): string {
  const first = request.body.messages[0];
  return first?.role === 'system' && typeof first.content === 'string' ? first.content : '';
}

export const sharedSkillPath = (slug: string) => `/home/gem/skills/${slug}/SKILL.md`;
export const personalSkillPath = (slug: string) => `/home/gem/user-data/agents/skills/${slug}/SKILL.md`;
