import { Injectable } from '@nestjs/common';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { McpToolInfo } from '../client/mcp-tool-info.js';
import { ToolSchemaCompiler, type CompiledToolSchema } from '../../tools/index.js';

export type CompiledToolList = ReadonlyMap<string, CompiledToolSchema>;

/**
 * The compiled input schemas of each server's tool list, compiled once per list (not per call, not per
 * run): a cached list is the same array, and a list read afresh with the same schemas (the builtin
 * `knowledge` server, each run) is recognized by its content. Compiling yields to the event loop
 * between tools, so a long list does not stall the worker.
 */
@Injectable()
export class McpToolSchemas {
  private readonly byList = new WeakMap<readonly McpToolInfo[], Promise<CompiledToolList>>();
  private readonly byServer = new Map<string, { key: string; compiled: Promise<CompiledToolList> }>();

  compiled(slug: string, tools: readonly McpToolInfo[]): Promise<CompiledToolList> {
    const known = this.byList.get(tools);
    if (known !== undefined) return known;
    const key = JSON.stringify(tools.map((tool) => [tool.name, tool.inputSchema]));
    let entry = this.byServer.get(slug);
    if (entry?.key !== key) {
      entry = { key, compiled: compileAll(tools) };
      this.byServer.set(slug, entry);
    }
    this.byList.set(tools, entry.compiled);
    return entry.compiled;
  }
}

async function compileAll(tools: readonly McpToolInfo[]): Promise<CompiledToolList> {
  const compiler = new ToolSchemaCompiler();
  const compiled = new Map<string, CompiledToolSchema>();
  for (const tool of tools) {
    compiled.set(tool.name, compiler.compile(tool.inputSchema));
    await nextTurn();
  }
  return compiled;
}
