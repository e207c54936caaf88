import type { RecordedRequest } from '../fake-openai/fake-openai-script';

type Messages = RecordedRequest['body']['messages'];

/** Ids of the tool calls in a model request that no later tool message answers. */
export function unansweredToolCalls(messages: Messages): string[] {
  const answered = new Set(messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
  return messages
    .filter((m) => m.role === 'assistant')
    .flatMap((m) => (m.tool_calls ?? []) as { id: string }[])
    .map((call) => call.id)
    .filter((id) => !answered.has(id));
}

/** Every tool call id requested by the assistant messages of a model request, in order. */
export function requestedToolCalls(messages: Messages): string[] {
  return messages
    .filter((m) => m.role === 'assistant')
    .flatMap((m) => (m.tool_calls ?? []) as { id: string }[])
    .map((call) => call.id);
}

/** The tool message answering `toolCallId` in a model request. */
export function toolAnswer(messages: Messages, toolCallId: string) {
  return messages.find((m) => m.role === 'tool' && m.tool_call_id === toolCallId);
}

/** The names of the tools a model request offered. */
export const offeredTools = (request: RecordedRequest) =>
  (request.body.tools ?? []).map((tool) => tool.function.name);
