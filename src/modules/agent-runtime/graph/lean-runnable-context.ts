import { AsyncLocalStorageProviderSingleton, _CONTEXT_VARIABLES_KEY } from '@langchain/core/singletons';

/** Where LangChain keeps a runnable's config in the async-local store (`getRunnableConfig` reads it). */
const LC_CHILD_KEY = Symbol.for('lc:child_config');
const LANGCHAIN_TRACER = 'langchain_tracer';
/** The variables that turn LangSmith tracing on (LangChain reads the same ones). */
const TRACING_VARIABLES = [
  'LANGSMITH_TRACING_V2',
  'LANGCHAIN_TRACING_V2',
  'LANGSMITH_TRACING',
  'LANGCHAIN_TRACING',
];

type RunWithConfig = typeof AsyncLocalStorageProviderSingleton.runWithConfig;
type StoreConfig = unknown;

let installed = false;

/** Whether the config carries LangSmith's tracer (only then does the store need a real run tree). */
function hasTracer(config: StoreConfig): boolean {
  const callbacks = (config as { callbacks?: unknown } | undefined)?.callbacks;
  const handlers = Array.isArray(callbacks) ? callbacks : (callbacks as { handlers?: unknown[] })?.handlers;
  return handlers?.some((handler) => (handler as { name?: string })?.name === LANGCHAIN_TRACER) ?? false;
}

/**
 * LangGraph enters the async-local store of LangChain once per node, write and route of every step,
 * and LangChain builds a LangSmith `RunTree` each time (a UUIDv7 from `crypto.getRandomValues`, dates,
 * environment reads), only to hold the runnable's config when tracing is off: about 3 ms of CPU per
 * 3-tool run. With LangSmith tracing off (at install) and no tracer in the config, the store gets a
 * plain object with the two fields that are read back (the config and the context variables);
 * otherwise the original runs. Idempotent.
 */
export function installLeanRunnableContext(env: NodeJS.ProcessEnv = process.env): void {
  if (installed || TRACING_VARIABLES.some((name) => env[name] === 'true')) return;
  installed = true;
  const provider = AsyncLocalStorageProviderSingleton;
  const original: RunWithConfig = provider.runWithConfig.bind(provider);
  provider.runWithConfig = function leanRunWithConfig<T>(
    config: StoreConfig,
    callback: () => T,
    avoidCreatingRootRunTree?: boolean,
  ): T {
    if (hasTracer(config)) return original(config, callback, avoidCreatingRootRunTree);
    const storage = provider.getInstance();
    const previous = storage.getStore() as Record<symbol, unknown> | undefined;
    const contextVariables = previous?.[_CONTEXT_VARIABLES_KEY];
    let store: Record<string | symbol, unknown> | undefined =
      avoidCreatingRootRunTree === true ? undefined : { extra: { [LC_CHILD_KEY]: config } };
    if (contextVariables !== undefined) store = { ...store, [_CONTEXT_VARIABLES_KEY]: contextVariables };
    return storage.run(store, callback);
  } as RunWithConfig;
}
