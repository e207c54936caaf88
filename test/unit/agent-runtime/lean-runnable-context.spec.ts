import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import { Annotation, Command, END, interrupt, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { RunTree } from 'langsmith';
import { installLeanRunnableContext } from '../../../src/modules/agent-runtime/graph/lean-runnable-context.js';

const provider = AsyncLocalStorageProviderSingleton;

describe('installLeanRunnableContext', () => {
  const original = provider.runWithConfig;
  afterAll(() => {
    provider.runWithConfig = original;
  });

  it('is not installed while LangSmith tracing is on', () => {
    installLeanRunnableContext({ LANGSMITH_TRACING: 'true' });
    expect(provider.runWithConfig).toBe(original);
  });

  describe('installed', () => {
    beforeAll(() => installLeanRunnableContext({}));

    it('keeps the config readable without building a LangSmith run tree', () => {
      const config = { configurable: { thread_id: 't' } };
      const seen = provider.runWithConfig(config, () => ({
        store: provider.getInstance().getStore() as unknown,
        config: provider.getRunnableConfig() as unknown,
      }));
      expect(provider.runWithConfig).not.toBe(original);
      expect(seen.config).toBe(config);
      expect(seen.store).not.toBeInstanceOf(RunTree);
    });

    it('leaves the store empty when asked not to create a root, as LangChain does', () => {
      const store = provider.runWithConfig({}, () => provider.getInstance().getStore() as unknown, true);
      expect(store).toBeUndefined();
    });

    it('hands a config carrying the LangSmith tracer to LangChain', () => {
      const tracer = { name: 'langchain_tracer', getRunTreeWithTracingConfig: () => undefined };
      const store = provider.runWithConfig(
        { callbacks: [tracer] },
        () => provider.getInstance().getStore() as unknown,
      );
      expect(store).toBeInstanceOf(RunTree);
    });

    it('still lets a node interrupt and resume (the interrupt reads its config from the store)', async () => {
      const asked: unknown[] = [];
      const State = Annotation.Root({ answer: Annotation<string>() });
      const asking = new StateGraph(State)
        .addNode('ask', () => {
          const answer = interrupt<string, string>('question?');
          asked.push(answer);
          return { answer };
        })
        .addEdge(START, 'ask')
        .addEdge('ask', END)
        .compile({ checkpointer: new MemorySaver() });
      const config = { configurable: { thread_id: 'lean' } };
      const first = await asking.invoke({ answer: '' }, config);
      expect(first).toHaveProperty('__interrupt__');
      const resumed = await asking.invoke(new Command({ resume: 'yes' }), config);
      expect(resumed.answer).toBe('yes');
      expect(asked).toEqual(['yes']);
    });
  });
});
