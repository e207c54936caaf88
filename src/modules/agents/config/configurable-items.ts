import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { DEFAULT_APPROVAL_POLICY } from '../../tools/index.js';
import type { ConfigurableDefault, ConfigurableItemDto } from '../dto/agent.dto.js';
import { AgentResourceCatalog } from '../resources/agent-resource-catalog.js';
import type { ShareActor } from '../../../common/sharing/index.js';
import {
  ALL,
  APPROVAL_FIELD,
  defaultAgentConfig,
  isResourceField,
  type AgentConfig,
  type ConfigField,
} from './agent-config.js';
import { editableFields, type FormLanguage } from './agent-config-fields.js';

/** The edit form for one caller: the fields they may change, with options from their own resources. */
@Injectable()
export class ConfigurableItems {
  constructor(
    private readonly catalog: AgentResourceCatalog,
    private readonly appConfig: AppConfig,
  ) {}

  async forEditor(
    actor: ShareActor,
    config: AgentConfig,
    language: FormLanguage,
  ): Promise<ConfigurableItemDto[]> {
    const defaults = defaultAgentConfig(this.appConfig.llm.defaultModel);
    return Promise.all(
      editableFields(actor.role).map(async (metadata): Promise<ConfigurableItemDto> => {
        const { field, name, description, type, minimum, maximum } = metadata;
        const item: ConfigurableItemDto = {
          field,
          name: name[language],
          description: description[language],
          type,
          default: defaultOf(field, defaults),
        };
        if (minimum !== undefined) item.minimum = minimum;
        if (maximum !== undefined) item.maximum = maximum;
        if (isResourceField(field)) {
          let options = await this.catalog.usableOptions(field, actor);
          if (field === 'preload_skills' && config.skills !== ALL) {
            const selected = new Set(config.skills);
            options = options.filter((option) => selected.has(option.value));
          }
          item.options = options;
        }
        return item;
      }),
    );
  }
}

/** What a new agent gets: its saved defaults, or for `approval` (never stored unasked) the policy it runs under. */
function defaultOf(field: ConfigField, defaults: AgentConfig): ConfigurableDefault {
  if (field === APPROVAL_FIELD) return { ...DEFAULT_APPROVAL_POLICY, rules: [] };
  return defaults[field];
}
