import { Injectable } from '@nestjs/common';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { z } from 'zod';
import { ToolsErrors } from '../tools.errors.js';
import type { ToolInvocation, ToolOutput } from '../execution/tool-execution-context.js';
import { BASE_TOOL_NAMES } from './base-tools.js';
import type { AgentToolOptions, ToolAvailability, ToolMetadata } from './tool-metadata.js';

export type ToolHandler = (args: unknown, invocation: ToolInvocation) => Promise<ToolOutput>;

/** A registered tool as handed out: metadata is a copy, the handler and schema are shared and immutable. */
export interface RegisteredTool {
  metadata: ToolMetadata;
  handler: ToolHandler;
  /**
   * Current availability (configuration can change at run time). A promise when the owner has to read
   * it (saved settings); callers await it.
   */
  availability(): ToolAvailability | Promise<ToolAvailability>;
}

export type AvailabilityProbe = () => ToolAvailability | Promise<ToolAvailability>;

interface Entry {
  metadata: ToolMetadata;
  handler: ToolHandler;
  availability: AvailabilityProbe;
}

const ALWAYS_AVAILABLE = (): ToolAvailability => ({ available: true, reason: null });

/** Metadata for a LangChain tool built elsewhere (vendor tools): everything but what the tool carries. */
export type ConstructedToolMetadata = Omit<AgentToolOptions, 'name' | 'description' | 'schema'>;

function copyMetadata(metadata: ToolMetadata): ToolMetadata {
  return { ...metadata, tags: [...metadata.tags], resources: metadata.resources.map((r) => ({ ...r })) };
}

/**
 * Every tool the process can execute, by protocol name. Names are unique (a second registration of a
 * name is an error); reads return fresh arrays and copied metadata, so callers cannot change the registry.
 */
@Injectable()
export class ToolRegistry {
  private readonly entries = new Map<string, Entry>();

  /** Registers a handler with its options (what `@AgentTool` discovery calls). */
  registerHandler(options: AgentToolOptions, handler: ToolHandler): void {
    if (this.entries.has(options.name)) throw ToolsErrors.duplicateName(options.name);
    const metadata: ToolMetadata = {
      ...options,
      tags: [...options.tags],
      resources: (options.resources ?? []).map((r) => ({ ...r })),
      forbiddenForSubagents: options.forbiddenForSubagents ?? false,
      sideEffects: options.sideEffects ?? 'none',
      boundsOwnOutput: options.boundsOwnOutput ?? false,
      base: BASE_TOOL_NAMES.has(options.name),
    };
    this.entries.set(options.name, { metadata, handler, availability: ALWAYS_AVAILABLE });
  }

  /** Registers an already constructed LangChain tool; its zod schema validates the arguments. */
  register(tool: StructuredToolInterface, metadata: ConstructedToolMetadata): void {
    this.registerHandler(
      { ...metadata, name: tool.name, description: tool.description, schema: tool.schema as z.ZodType },
      (args, invocation) => tool.invoke(args as never, { signal: invocation.signal }) as Promise<ToolOutput>,
    );
  }

  /**
   * Lets the module that owns a tool's configuration report whether it can be bound now; asked at
   * every graph build and catalog read, so it may read its configuration anew (asynchronously).
   */
  setAvailability(name: string, availability: AvailabilityProbe): void {
    const entry = this.entries.get(name);
    if (entry === undefined) throw ToolsErrors.notFound(name);
    entry.availability = availability;
  }

  get(name: string): RegisteredTool | undefined {
    const entry = this.entries.get(name);
    return entry === undefined ? undefined : this.view(entry);
  }

  list(): RegisteredTool[] {
    return [...this.entries.values()].map((entry) => this.view(entry));
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  private view(entry: Entry): RegisteredTool {
    return {
      metadata: copyMetadata(entry.metadata),
      handler: entry.handler,
      availability: () => {
        const current = entry.availability();
        return current instanceof Promise ? current.then((value) => ({ ...value })) : { ...current };
      },
    };
  }
}
