import type { AppConfig } from '../../../../src/config/app-config';
import { Secret } from '../../../../src/config/secret';
import {
  ChatModelFactory,
  type ChatModelFactoryOptions,
} from '../../../../src/modules/agent-runtime/model/chat-model.factory';
import type { FakeOpenAiServer } from '../../../support/fake-openai/fake-openai-server';

export const TEST_API_KEY = 'sk-test-never-shown';

/** A factory configured for the fake server (only the `llm` group of the config is read). */
export function factoryFor(fake: FakeOpenAiServer, options?: ChatModelFactoryOptions): ChatModelFactory {
  const config = {
    llm: {
      openaiBaseUrl: fake.baseUrl,
      openaiApiKey: new Secret(TEST_API_KEY),
      configured: true,
      defaultModel: 'fake-default',
      embeddingsModel: null,
    },
  } as unknown as AppConfig;
  return new ChatModelFactory(config, options);
}
