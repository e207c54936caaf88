import type { FakeReply, FakeToolCall, RecordedRequest } from '../fake-openai/fake-openai-script';

type Body = RecordedRequest['body'];
type Message = Body['messages'][number];

/** The run's user message (a parent's input, or a child's task description). */
export const userInput = (body: Body): string => {
  const first = body.messages.find((message) => message.role === 'user');
  return typeof first?.content === 'string' ? first.content : JSON.stringify(first?.content);
};

export const toolMessages = (body: Body): Message[] =>
  body.messages.filter((message) => message.role === 'tool');

export const systemPrompt = (body: Body): string => {
  const system = body.messages.find((message) => message.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
};

/** The JSON tool results of a request, by tool call id. */
export function toolResults(body: Body): Map<string, Record<string, unknown>> {
  return new Map(
    toolMessages(body).map((message) => [
      message.tool_call_id!,
      JSON.parse(String(message.content)) as Record<string, unknown>,
    ]),
  );
}

export const call = (id: string, name: string, args: Record<string, unknown>): FakeToolCall => ({
  id,
  name,
  args,
});

export const startCall = (id: string, description: string, extra: Record<string, unknown> = {}) =>
  call(id, 'subagent_start', { description, subagent_slug: 'general-purpose', ...extra });

/**
 * A parent's turns as a function of how many tool results it has seen: `turns[n]` answers the request
 * that carries `n` tool messages (given the results so far), so the script holds whatever order the
 * parent's and children's requests reach the model in.
 */
export function parentTurns(
  turns: ((results: Map<string, Record<string, unknown>>) => FakeReply)[],
): (body: Body) => FakeReply {
  return (body) => {
    const results = toolResults(body);
    let answered = 0;
    for (const [index, turn] of turns.entries()) {
      const needed = callsBefore(turns, index, results);
      if (results.size === needed) return turn(results);
      answered = needed;
    }
    throw new Error(`no scripted parent turn after ${answered} tool results (${results.size} seen)`);
  };
}

/** Tool calls made by the turns before `index` (each turn's reply is recomputed from the results). */
function callsBefore(
  turns: ((results: Map<string, Record<string, unknown>>) => FakeReply)[],
  index: number,
  results: Map<string, Record<string, unknown>>,
): number {
  let count = 0;
  for (let i = 0; i < index; i++) {
    const reply = turns[i](results);
    count += 'toolCalls' in reply ? reply.toolCalls.length : 0;
  }
  return count;
}

/** A promise to release a held model reply from the test. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
