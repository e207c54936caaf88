import { Injectable, Logger } from '@nestjs/common';

/** What another module does when an account is disabled (e.g. schedules stop firing for it). */
export type AccountDisabledHook = (userId: string) => Promise<void>;

/**
 * A port: modules that keep work going for a user register here, and the users module calls them once
 * an account is disabled (after the change is committed). A failing hook is logged, not raised: the
 * account is disabled either way, and each module also checks the account when it acts.
 */
@Injectable()
export class AccountDisabledHooks {
  private readonly logger = new Logger(AccountDisabledHooks.name);
  private readonly hooks: { name: string; hook: AccountDisabledHook }[] = [];

  register(name: string, hook: AccountDisabledHook): void {
    this.hooks.push({ name, hook });
  }

  async notify(userId: string): Promise<void> {
    for (const { name, hook } of this.hooks) {
      await hook(userId).catch((error: Error) =>
        this.logger.warn({ hook: name, user_id: userId, err: error.message }, 'account-disabled hook failed'),
      );
    }
  }
}
