import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { JsonPlusSerializer } from '@langchain/langgraph-checkpoint';
import { MessageCachingSerializer } from '../../../src/modules/agent-runtime/graph/message-caching-serializer';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('MessageCachingSerializer', () => {
  const library = new JsonPlusSerializer();

  it('writes the bytes of the library serializer for a growing history, and reads them back', async () => {
    const caching = new MessageCachingSerializer();
    const history: BaseMessage[] = [new HumanMessage({ id: 'h1', content: 'write it' })];
    for (let step = 0; step < 4; step++) {
      history.push(
        new AIMessage({
          id: `a${step}`,
          content: `step ${step}`,
          tool_calls: [
            { id: `call-${step}`, name: 'write_file', args: { file_path: 'x.txt', content: 'é"\n' } },
          ],
        }),
        new ToolMessage({ id: `t${step}`, content: 'ok', tool_call_id: `call-${step}`, name: 'write_file' }),
      );
      const [type, bytes] = await caching.dumpsTyped(history);
      const [libraryType, libraryBytes] = await library.dumpsTyped(history);
      expect(type).toBe(libraryType);
      expect(text(bytes)).toBe(text(libraryBytes));
      const back = (await caching.loadsTyped(type, bytes)) as BaseMessage[];
      expect(back.map((message) => [message.id, message.content])).toEqual(
        history.map((message) => [message.id, message.content]),
      );
    }
  });

  it('serializes a message again once its content, id or another field was reassigned', async () => {
    const caching = new MessageCachingSerializer();
    const message = new AIMessage({ id: 'a1', content: 'before' });
    const anonymous = new HumanMessage({ content: 'no id yet' });
    await caching.dumpsTyped([message, anonymous]);
    message.content = 'after';
    anonymous.content = 'changed';
    const [, changed] = await caching.dumpsTyped([message, anonymous]);
    expect(text(changed)).toBe(text((await library.dumpsTyped([message, anonymous]))[1]));
    message.id = 'a2';
    const [, renamed] = await caching.dumpsTyped([message]);
    expect(text(renamed)).toContain('"a2"');
    expect(text(renamed)).toBe(text((await library.dumpsTyped([message]))[1]));
  });

  it('makes the JSON of a message once while it is unchanged', async () => {
    const caching = new MessageCachingSerializer();
    const dumps = jest.spyOn(JsonPlusSerializer.prototype as never, '_dumps');
    try {
      const history: BaseMessage[] = [];
      for (let step = 0; step < 5; step++) {
        history.push(new AIMessage({ id: `a${step}`, content: `step ${step}` }));
        await caching.dumpsTyped(history);
      }
      // One per message, not 1 + 2 + … + 5.
      expect(dumps).toHaveBeenCalledTimes(5);
      history[0].additional_kwargs = { replaced: true };
      await caching.dumpsTyped(history);
      expect(dumps).toHaveBeenCalledTimes(6);
    } finally {
      dumps.mockRestore();
    }
  });

  it('leaves everything that is not a list of messages to the library', async () => {
    const caching = new MessageCachingSerializer();
    for (const value of [[], ['a', 1], { messages: [new HumanMessage({ id: 'h', content: 'x' })] }, 'text'])
      expect(text((await caching.dumpsTyped(value))[1])).toBe(text((await library.dumpsTyped(value))[1]));
  });
});
