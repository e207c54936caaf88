import type { Type } from '@nestjs/common';
import { FakeOpenAiServer } from '../fake-openai/fake-openai-server';
import { TestContext } from '../test-app';

export interface RuntimeContext {
  fake: FakeOpenAiServer;
  ctx: TestContext;
  close(): Promise<void>;
}

/**
 * An app running API and worker (`APP_ROLE=all`) whose model is a fresh `FakeOpenAiServer`: what a
 * test of agent runs starts with. `overrides` are environment variables.
 */
export async function startRuntime(
  overrides: Record<string, string> = {},
  extraModules: Type[] = [],
): Promise<RuntimeContext> {
  const fake = await FakeOpenAiServer.start();
  try {
    const ctx = await TestContext.start(
      { APP_ROLE: 'all', OPENAI_BASE_URL: fake.baseUrl, DEFAULT_MODEL: 'fake-model', ...overrides },
      extraModules,
    );
    return {
      fake,
      ctx,
      close: async () => {
        await ctx.close();
        await fake.close();
      },
    };
  } catch (error) {
    await fake.close();
    throw error;
  }
}
