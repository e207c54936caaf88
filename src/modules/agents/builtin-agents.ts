import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { AgentsRepository, type NewAgent } from './agents.repository.js';
import { defaultAgentConfig, GENERAL_PURPOSE_SLUG } from './config/agent-config.js';

export const DEFAULT_CHATBOT_SLUG = 'default-chatbot';

/**
 * Seeds the builtin agents on start. An existing row is never overwritten (admins may have changed its
 * config), and concurrent starts are safe (`INSERT … ON CONFLICT DO NOTHING` on the slug).
 */
@Injectable()
export class BuiltinAgents implements OnApplicationBootstrap {
  private readonly logger = new Logger(BuiltinAgents.name);

  constructor(
    private readonly agents: AgentsRepository,
    private readonly appConfig: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const agent of this.definitions()) await this.agents.insertIfAbsent(agent);
    this.logger.debug('builtin agents present');
  }

  private definitions(): NewAgent[] {
    const defaults = defaultAgentConfig(this.appConfig.llm.defaultModel);
    const shared = { builtin: true, ownerId: null, shareConfig: globalRead() };
    return [
      {
        ...shared,
        slug: DEFAULT_CHATBOT_SLUG,
        name: 'Chatbot',
        description: 'General conversation agent.',
        isSubagent: false,
        config: { ...defaults, system_prompt: 'You are a helpful assistant.' },
      },
      {
        ...shared,
        slug: GENERAL_PURPOSE_SLUG,
        name: 'General purpose',
        description: 'Handles a delegated task on its own and reports the result.',
        isSubagent: true,
        // Subagents never delegate further.
        config: {
          ...defaults,
          subagents: [],
          system_prompt: 'Complete the delegated task and report the result.',
        },
      },
    ];
  }
}

function globalRead(): NewAgent['shareConfig'] {
  return { version: 2, read_scope: { level: 'global' }, manage_scope: null };
}
