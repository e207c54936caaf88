import { type FakeReply, splitIntoPieces } from './fake-openai-script';

/** The usage object of a reply, as OpenAI sends it. */
function usageOf(reply: FakeReply) {
  const { prompt_tokens, completion_tokens, cached_tokens } = reply.usage ?? {
    prompt_tokens: 11,
    completion_tokens: 7,
  };
  return {
    prompt_tokens,
    completion_tokens,
    total_tokens: prompt_tokens + completion_tokens,
    ...(cached_tokens === undefined ? {} : { prompt_tokens_details: { cached_tokens } }),
  };
}

interface ResolvedToolCall {
  id: string;
  name: string;
  arguments: string;
}

function resolveToolCalls(reply: FakeReply, requestNumber: number): ResolvedToolCall[] {
  if (!('toolCalls' in reply)) return [];
  return reply.toolCalls.map((call, i) => ({
    id: call.id ?? `call_${requestNumber}_${i}`,
    name: call.name,
    arguments: JSON.stringify(call.args),
  }));
}

/** The SSE `data:` payloads of a streamed reply: text in pieces, tool call arguments split across chunks. */
export function streamedChunks(
  reply: FakeReply,
  model: string,
  requestNumber: number,
  includeUsage: boolean,
) {
  const base = { id: `chatcmpl-${requestNumber}`, object: 'chat.completion.chunk', created: 0, model };
  const chunk = (delta: object, finishReason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const chunks: object[] = [chunk({ role: 'assistant', content: '' })];
  if (reply.text) for (const piece of splitIntoPieces(reply.text, 4)) chunks.push(chunk({ content: piece }));
  const toolCalls = resolveToolCalls(reply, requestNumber);
  toolCalls.forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    for (const piece of splitIntoPieces(call.arguments, 5))
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, toolCalls.length > 0 ? 'tool_calls' : 'stop'));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: usageOf(reply) });
  return chunks;
}

/** The JSON body of a non-streamed reply. */
export function completionBody(reply: FakeReply, model: string, requestNumber: number) {
  const toolCalls = resolveToolCalls(reply, requestNumber);
  const message = {
    role: 'assistant',
    content: reply.text ?? null,
    ...(toolCalls.length > 0 && {
      tool_calls: toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    }),
  };
  return {
    id: `chatcmpl-${requestNumber}`,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message, finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: usageOf(reply),
  };
}
