import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { Tiktoken } from 'js-tiktoken/lite';
import type { FunctionTool } from '../model/retrying-chat-openai.js';

/** The encodings of the OpenAI family; any other model is counted with `heuristicTokens`. */
export type TokenEncodingName = 'o200k_base' | 'cl100k_base';

/** Per message: role and separators as the Chat Completions format adds them. */
const MESSAGE_OVERHEAD = 4;
/** Per tool call of an assistant message: its id, type and the function wrapper. */
const TOOL_CALL_OVERHEAD = 8;
/** The reply's priming (`<|start|>assistant<|message|>`). */
const REQUEST_OVERHEAD = 3;
/** Messages counted by id across runs of a worker (a resumed thread's history comes back as new objects). */
const MAX_COUNTED_IDS = 20_000;

/**
 * The encoding of a model of the OpenAI family by its name (a `provider/` prefix is ignored), null for
 * any other model.
 */
export function encodingOfModel(model: string): TokenEncodingName | null {
  const name = model.toLowerCase().replace(/^.*\//, '');
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|chatgpt-4o|o1|o3|o4)/.test(name)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5|text-embedding-3|text-embedding-ada)/.test(name)) return 'cl100k_base';
  return null;
}

/**
 * A guess without a tokenizer, meant to be at or above what BPE tokenizers count for prose, code,
 * JSON and CJK text: letters a third of a token each, digits and ASCII punctuation or spaces half,
 * any other character (CJK, accents, emoji) one. Random strings (ids, base64) can count higher; the
 * provider's own refusal (a context overflow) is the backstop there.
 */
export function heuristicTokens(text: string): number {
  let letters = 0;
  let short = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) letters++;
    else if (code < 0x80) short++;
    else if (code < 0xdc00 || code > 0xdfff) other++; // a surrogate pair counts once
  }
  return Math.ceil(letters / 3) + Math.ceil(short / 2) + other;
}

type TiktokenRanks = ConstructorParameters<typeof Tiktoken>[0];
const encoders = new Map<TokenEncodingName, Tiktoken>();

/**
 * The encoding's tokenizer, built on first use: its ranks (a few MB of JS) load only in a process that
 * counts a long request, and parsing them blocks for a moment once per process (see `bench:context`).
 */
function encoderOf(name: TokenEncodingName): Tiktoken {
  let encoder = encoders.get(name);
  if (encoder === undefined) {
    // Required, not imported at the top: an API process or a short thread never loads the ranks.
    const ranks = (
      name === 'o200k_base'
        ? // eslint-disable-next-line @typescript-eslint/no-require-imports
          require('js-tiktoken/ranks/o200k_base')
        : // eslint-disable-next-line @typescript-eslint/no-require-imports
          require('js-tiktoken/ranks/cl100k_base')
    ) as TiktokenRanks | { default: TiktokenRanks };
    // The CommonJS build exports the ranks themselves.
    encoder = new Tiktoken('default' in ranks ? ranks.default : ranks);
    encoders.set(name, encoder);
  }
  return encoder;
}

const textOf = (content: BaseMessage['content']): string =>
  typeof content === 'string'
    ? content
    : content
        .map((part) =>
          part.type === 'text' && typeof part.text === 'string' ? part.text : JSON.stringify(part),
        )
        .join('');

/** The text of a message as it is sent: its content, its tool calls' names and arguments, its name. */
function sentTextOf(message: BaseMessage): { text: string; toolCalls: number } {
  let text = textOf(message.content);
  let toolCalls = 0;
  if (AIMessage.isInstance(message))
    for (const call of message.tool_calls ?? []) {
      text += call.name + JSON.stringify(call.args ?? {});
      toolCalls++;
    }
  if (ToolMessage.isInstance(message)) text += message.tool_call_id;
  if (typeof message.name === 'string') text += message.name;
  return { text, toolCalls };
}

/** A bounded map that forgets its oldest entries (insertion order). */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }
  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.limit) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}

/**
 * Counts the tokens of model requests for one encoding (or the heuristic), each message once: messages
 * are never changed once made, so a count is kept per message object and, across runs (whose history
 * comes back from the checkpoint as new objects), per message id.
 */
export class TokenCounter {
  private readonly byMessage = new WeakMap<BaseMessage, number>();
  private readonly byId = new BoundedMap<string, { chars: number; tokens: number }>(MAX_COUNTED_IDS);
  private readonly byTools = new BoundedMap<string, number>(64);
  private readonly boundByMessage = new WeakMap<BaseMessage, number>();
  /** The JSON of a tool list, kept per list: a run offers the same list object on each of its calls. */
  private readonly jsonByTools = new WeakMap<readonly FunctionTool[], string>();

  constructor(readonly encoding: TokenEncodingName | null) {}

  text(text: string): number {
    if (this.encoding === null || text.length === 0) return heuristicTokens(text);
    // Special-token strings in a message are plain text to the provider: counted as such.
    return encoderOf(this.encoding).encode(text, [], []).length;
  }

  message(message: BaseMessage): number {
    const cached = this.byMessage.get(message);
    if (cached !== undefined) return cached;
    const { text, toolCalls } = sentTextOf(message);
    const id = message.id;
    const known = id === undefined ? undefined : this.byId.get(id);
    const tokens =
      known !== undefined && known.chars === text.length
        ? known.tokens
        : this.text(text) + MESSAGE_OVERHEAD + toolCalls * TOOL_CALL_OVERHEAD;
    this.byMessage.set(message, tokens);
    if (id !== undefined && known === undefined) this.byId.set(id, { chars: text.length, tokens });
    return tokens;
  }

  /** The tool schemas as sent (their JSON); the same list is offered on most calls of a run. */
  tools(tools: readonly FunctionTool[]): number {
    if (tools.length === 0) return 0;
    const json = this.toolsJson(tools);
    let tokens = this.byTools.get(json);
    if (tokens === undefined) {
      tokens = this.text(json);
      this.byTools.set(json, tokens);
    }
    return tokens;
  }

  /**
   * A bound no tokenizer exceeds: a byte-level BPE token is at least one UTF-8 byte. A request under
   * the limit by this bound needs no tokenizer at all (the heuristic is its own bound).
   */
  upperBound(messages: readonly BaseMessage[], tools: readonly FunctionTool[]): number {
    if (this.encoding === null) return this.request(messages, tools);
    let total = REQUEST_OVERHEAD + (tools.length === 0 ? 0 : Buffer.byteLength(this.toolsJson(tools)));
    for (const message of messages) {
      let bound = this.boundByMessage.get(message);
      if (bound === undefined) {
        const { text, toolCalls } = sentTextOf(message);
        bound = Buffer.byteLength(text) + MESSAGE_OVERHEAD + toolCalls * TOOL_CALL_OVERHEAD;
        this.boundByMessage.set(message, bound);
      }
      total += bound;
    }
    return total;
  }

  private toolsJson(tools: readonly FunctionTool[]): string {
    let json = this.jsonByTools.get(tools);
    if (json === undefined) {
      json = JSON.stringify(tools);
      this.jsonByTools.set(tools, json);
    }
    return json;
  }

  request(messages: readonly BaseMessage[], tools: readonly FunctionTool[]): number {
    let total = REQUEST_OVERHEAD + this.tools(tools);
    for (const message of messages) total += this.message(message);
    return total;
  }
}

const counters = new Map<TokenEncodingName | 'heuristic', TokenCounter>();

/** The counter of a model's encoding, one per encoding in the process (their caches are shared). */
export function tokenCounterFor(model: string): TokenCounter {
  const encoding = encodingOfModel(model);
  const key = encoding ?? 'heuristic';
  let counter = counters.get(key);
  if (counter === undefined) {
    counter = new TokenCounter(encoding);
    counters.set(key, counter);
  }
  return counter;
}
