import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { SandboxErrors } from './sandbox.errors.js';

/** Sandboxes of this process, at most `SANDBOX_MAX_CONCURRENCY` and `SANDBOX_MAX_PER_USER` per user. */
@Injectable()
export class SandboxSlots {
  private running = 0;
  private readonly byUser = new Map<string, number>();

  constructor(private readonly config: AppConfig) {}

  /** A slot for the user's command, or `sandbox.busy`; call the returned function once it ended. */
  take(userId: string): () => void {
    const { maxConcurrency, maxPerUser } = this.config.sandbox;
    const mine = this.byUser.get(userId) ?? 0;
    if (mine >= maxPerUser) throw SandboxErrors.busy('user', maxPerUser);
    if (this.running >= maxConcurrency) throw SandboxErrors.busy('process', maxConcurrency);
    this.running++;
    this.byUser.set(userId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const left = (this.byUser.get(userId) ?? 1) - 1;
      if (left === 0) this.byUser.delete(userId);
      else this.byUser.set(userId, left);
    };
  }
}
