import { Injectable } from '@nestjs/common';
import type { ToolInvocation } from './tool-execution-context.js';

/** One successful result on its way to the model, with the tool (by its offered name) that produced it. */
export interface ToolResultToOffload {
  content: string;
  toolName: string;
  invocation: ToolInvocation;
}

/** Keeps an oversized result out of the model's context (the workspace saves it to a file). */
export interface LargeResultStore {
  /** The content itself when small enough, otherwise what the model sees instead of it. */
  offload(result: ToolResultToOffload): Promise<string>;
}

/**
 * Where the module that owns storage plugs its large-result store into the execution boundary (the
 * workspace does, in `onModuleInit`). Every successful result of every source passes it.
 */
@Injectable()
export class LargeResultOffloader {
  private store: LargeResultStore | null = null;

  register(store: LargeResultStore): void {
    if (this.store !== null) throw new Error('a large-result store is already registered');
    this.store = store;
  }

  offload(result: ToolResultToOffload): Promise<string> {
    return this.store === null ? Promise.resolve(result.content) : this.store.offload(result);
  }
}
