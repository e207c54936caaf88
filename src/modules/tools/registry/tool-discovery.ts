import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AGENT_TOOL } from './agent-tool.decorator.js';
import type { AgentToolOptions } from './tool-metadata.js';
import { ToolRegistry, type ToolHandler } from './tool-registry.js';

/** Registers every `@AgentTool` method of every provider at boot: no hand-maintained list. */
@Injectable()
export class ToolDiscovery implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly registry: ToolRegistry,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (instance === undefined || instance === null || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance) as object | null;
      if (prototype === null) continue;
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        const method = instance[methodName];
        if (typeof method !== 'function') continue;
        const options = this.reflector.get<AgentToolOptions | undefined>(AGENT_TOOL, method);
        if (options === undefined) continue;
        const handler: ToolHandler = (args, invocation) =>
          (method as ToolHandler).call(instance, args, invocation);
        this.registry.registerHandler(options, handler);
      }
    }
  }
}
