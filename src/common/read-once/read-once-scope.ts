import { AsyncLocalStorage } from 'node:async_hooks';

interface Scope {
  open: boolean;
  reads: Map<string, Promise<unknown>>;
}

const current = new AsyncLocalStorage<Scope>();

/**
 * A short stretch of work (a run's assembly) in which the same read, asked by several components, goes
 * to the database once: inside `withReadOnceScope`, `readOnce` with the same key shares one promise.
 * The scope closes when its work settles; a callback that outlives it (a pooled connection's handler
 * started inside) reads anew, so nothing is cached past the stretch it was read for. Outside a scope
 * every read is made. What is shared is the same object: callers must not mutate it.
 */
export async function withReadOnceScope<T>(work: () => Promise<T>): Promise<T> {
  const scope: Scope = { open: true, reads: new Map() };
  try {
    return await current.run(scope, work);
  } finally {
    scope.open = false;
    scope.reads.clear();
  }
}

/** `read()`, or the promise of the same key already asked for in the open scope. */
export function readOnce<T>(key: string, read: () => Promise<T>): Promise<T> {
  const scope = current.getStore();
  if (scope === undefined || !scope.open) return read();
  let shared = scope.reads.get(key) as Promise<T> | undefined;
  if (shared === undefined) {
    shared = read();
    scope.reads.set(key, shared);
  }
  return shared;
}
