import {
  _mergeLists,
  collapseToolCallChunks,
  type InvalidToolCall,
  type ToolCall,
  type ToolCallChunk,
  type UsageMetadata,
} from '@langchain/core/messages';
import type { OpenAIClient } from '@langchain/openai';
import { storableJson, storableText } from '../../../common/text/storable-text.js';

type CompletionChunk = OpenAIClient.Chat.Completions.ChatCompletionChunk;
type CompletionUsage = NonNullable<CompletionChunk['usage']>;

/** What one model call answered: its text, its tool calls (those whose arguments do not parse apart). */
export interface ChatTurn {
  content: string;
  toolCalls: ToolCall[];
  invalidToolCalls: InvalidToolCall[];
  usage?: UsageMetadata;
  /** Why the model stopped (`stop`, `tool_calls`, `length`, …), as its last choice chunk said. */
  finishReason?: string;
  /** The model that answered and the completion's id, as the chunks name them. */
  responseModel?: string;
  responseId?: string;
}

/**
 * Reads a streamed Chat Completions answer into a `ChatTurn`, handing each piece of text to `onText` as
 * it arrives. What LangChain's `ChatOpenAICompletions` stream and `AIMessageChunk.concat` make of the
 * same chunks (text, tool call chunks merged by index and collapsed by LangChain's own functions, the
 * usage of the last chunk that had one), without a message chunk object, callback run or trace per
 * chunk. Stops reading once `signal` is aborted and throws its reason. NUL and unpaired surrogates in
 * the text and the tool calls become U+FFFD: PostgreSQL could store neither, and the run would fail.
 */
export async function readChatTurn(
  chunks: AsyncIterable<CompletionChunk>,
  signal: AbortSignal | undefined,
  onText: (text: string) => void,
): Promise<ChatTurn> {
  let content = '';
  let toolCallChunks: ToolCallChunk[] | undefined;
  let usage: CompletionUsage | undefined;
  let finishReason: string | undefined;
  let responseModel: string | undefined;
  let responseId: string | undefined;
  for await (const data of chunks) {
    if (signal?.aborted) break;
    if (data.usage) usage = data.usage;
    if (responseModel === undefined && typeof data.model === 'string' && data.model !== '')
      responseModel = data.model;
    if (responseId === undefined && typeof data.id === 'string' && data.id !== '') responseId = data.id;
    const choice = data.choices?.[0];
    if (typeof choice?.finish_reason === 'string') finishReason = choice.finish_reason;
    const delta = choice?.delta;
    if (delta === undefined || delta === null) continue;
    // LangChain skips (with a warning) a chunk whose content is not a string.
    if (delta.content !== undefined && delta.content !== null && typeof delta.content !== 'string') continue;
    const text = storableText(delta.content ?? '');
    if (text !== '') {
      content += text;
      onText(text);
    }
    if (Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0)
      // Merged as `AIMessageChunk.concat` merges them (the same function, with its typing casts).
      toolCallChunks = _mergeLists(
        toolCallChunks as never,
        delta.tool_calls.map((raw): ToolCallChunk => ({
          name: raw.function?.name,
          args: raw.function?.arguments,
          id: raw.id,
          index: raw.index,
          type: 'tool_call_chunk',
        })) as never,
      ) as ToolCallChunk[] | undefined;
  }
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('AbortError');
  const collapsed =
    toolCallChunks === undefined || toolCallChunks.length === 0
      ? { tool_calls: [], invalid_tool_calls: [] }
      : collapseToolCallChunks(toolCallChunks);
  return {
    content,
    toolCalls: storableJson(collapsed.tool_calls),
    invalidToolCalls: storableJson(collapsed.invalid_tool_calls),
    ...(usage === undefined ? {} : { usage: usageMetadataOf(usage) }),
    ...(finishReason === undefined ? {} : { finishReason }),
    ...(responseModel === undefined ? {} : { responseModel }),
    ...(responseId === undefined ? {} : { responseId }),
  };
}

/** The usage as LangChain's OpenAI chat model reports it (`usage_metadata`). */
function usageMetadataOf(usage: CompletionUsage): UsageMetadata {
  const prompt = usage.prompt_tokens_details as
    | { audio_tokens?: number | null; cached_tokens?: number | null; cache_write_tokens?: number | null }
    | undefined;
  const completion = usage.completion_tokens_details;
  const input = {
    ...(prompt?.audio_tokens !== null && { audio: prompt?.audio_tokens }),
    ...(prompt?.cached_tokens !== null && { cache_read: prompt?.cached_tokens }),
    ...(prompt?.cache_write_tokens != null && { cache_creation: prompt.cache_write_tokens }),
  };
  const output = {
    ...(completion?.audio_tokens !== null && { audio: completion?.audio_tokens }),
    ...(completion?.reasoning_tokens !== null && { reasoning: completion?.reasoning_tokens }),
  };
  return {
    input_tokens: usage.prompt_tokens,
    output_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
    ...(Object.keys(input).length > 0 && { input_token_details: input }),
    ...(Object.keys(output).length > 0 && { output_token_details: output }),
  };
}
