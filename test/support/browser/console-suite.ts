import type { Type } from '@nestjs/common';
import type { BrowserContext, Page } from 'playwright-core';
import type { TestUser } from '../test-app';
import { ChatPage } from './chat-page';
import { collectPageErrors, browserContext, startConsoleApp, type ConsoleApp } from './console-browser';

export interface ConsoleSuite {
  readonly app: ConsoleApp;
  /** A user of the app, made once for the file. */
  readonly user: TestUser;
  /** A fresh page (its own browser context and storage) for each test. */
  readonly page: Page;
  readonly chat: ChatPage;
  /** What the page reported as errors during the test. */
  readonly errors: string[];
}

/**
 * The hooks of a browser test file: one app (API, worker, fake model) and one user for the file, a fresh
 * page per test whose fake-model script starts empty, and, unless `allowPageErrors`, a page that must
 * report no error. `environment` and `modules` are read when the app starts (after the file's earlier
 * `beforeAll`s).
 */
export function consoleSuite(
  options: {
    environment?: () => Record<string, string>;
    modules?: () => Type[];
    allowPageErrors?: boolean;
  } = {},
): ConsoleSuite {
  let app: ConsoleApp;
  let user: TestUser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    app = await startConsoleApp(options.environment?.(), options.modules?.());
    user = await app.ctx.newUser();
  }, 60_000);

  afterAll(() => app.close());

  beforeEach(async () => {
    app.fake.clearScript();
    context = await browserContext(app);
    page = await context.newPage();
    errors = collectPageErrors(page);
  });

  afterEach(async () => {
    await context.close();
    if (!options.allowPageErrors) expect(errors).toEqual([]);
  });

  return {
    get app() {
      return app;
    },
    get user() {
      return user;
    },
    get page() {
      return page;
    },
    get chat() {
      return new ChatPage(page);
    },
    get errors() {
      return errors;
    },
  };
}
