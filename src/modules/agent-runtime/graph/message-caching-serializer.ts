import { isBaseMessage, type BaseMessage } from '@langchain/core/messages';
import { JsonPlusSerializer } from '@langchain/langgraph-checkpoint';

interface CachedJson {
  /** The message's own property values when `json` was made. */
  fields: unknown[];
  json: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * LangGraph's JSON serializer, writing the same bytes, except that a list of messages is joined from
 * each message's JSON, made once per message object. A thread's whole history goes into every
 * checkpoint that changes it, so without this a run of n steps serializes about n²/2 messages.
 *
 * A message's JSON is made again when any of its own properties was reassigned (the reducer gives an
 * id to a message without one; content or tool calls replaced). Messages are not changed in place
 * below their properties: a checkpoint already taken would change with them.
 */
export class MessageCachingSerializer extends JsonPlusSerializer {
  private readonly cache = new WeakMap<BaseMessage, CachedJson>();

  protected override _dumps(obj: unknown): Uint8Array {
    if (!Array.isArray(obj) || obj.length === 0 || !obj.every((item) => isBaseMessage(item)))
      return super._dumps(obj);
    return encoder.encode(`[${obj.map((message) => this.jsonOf(message)).join(',')}]`);
  }

  private jsonOf(message: BaseMessage): string {
    const fields = Object.values(message);
    const cached = this.cache.get(message);
    if (
      cached !== undefined &&
      cached.fields.length === fields.length &&
      cached.fields.every((value, index) => value === fields[index])
    )
      return cached.json;
    const json = decoder.decode(super._dumps(message));
    this.cache.set(message, { fields, json });
    return json;
  }
}
