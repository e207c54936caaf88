import { Injectable } from '@nestjs/common';
import type { ResourceField } from '../config/agent-config.js';
import type { ShareActor } from '../../../common/sharing/index.js';

/** Fields whose ids come from a source; `preload_skills` draws from `skills`. */
export type SourcedField = Exclude<ResourceField, 'preload_skills'>;

export interface ResourceOption {
  value: string;
  label: string;
  description?: string;
}

/**
 * Where the ids of one resource field come from: what a given user may select. The module that owns
 * the resource (skills, knowledge, MCP, …) registers its source in `onModuleInit`.
 */
export interface AgentResourceSource {
  readonly field: SourcedField;
  usableOptions(actor: ShareActor): Promise<ResourceOption[]>;
  /**
   * Ids every agent has whatever its selection (the base tools): accepted when an editor names them
   * and stored as sent; the runtime offers them once either way.
   */
  readonly implicitIds?: ReadonlySet<string>;
}

/**
 * The one port for resource references in agent configs: the ids an editor may save, and (for the
 * runtime) the ids an operator may use. A field nobody registered a source for has no usable ids, so
 * every explicit reference to it is unknown.
 */
@Injectable()
export class AgentResourceCatalog {
  private readonly sources = new Map<SourcedField, AgentResourceSource>();

  register(source: AgentResourceSource): void {
    if (this.sources.has(source.field)) {
      throw new Error(`an agent resource source for "${source.field}" is already registered`);
    }
    this.sources.set(source.field, source);
  }

  async usableOptions(field: ResourceField, actor: ShareActor): Promise<ResourceOption[]> {
    const source = this.sources.get(field === 'preload_skills' ? 'skills' : field);
    return source === undefined ? [] : source.usableOptions(actor);
  }

  implicitIds(field: ResourceField): ReadonlySet<string> {
    return this.sources.get(field === 'preload_skills' ? 'skills' : field)?.implicitIds ?? new Set();
  }

  async usableIds(field: ResourceField, actor: ShareActor): Promise<Set<string>> {
    return new Set((await this.usableOptions(field, actor)).map((option) => option.value));
  }
}
