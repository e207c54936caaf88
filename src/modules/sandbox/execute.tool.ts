import { Injectable, type OnModuleInit } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppConfig } from '../../config/app-config.js';
import { Metrics } from '../../observability/metrics/index.js';
import { AgentTool, ToolRegistry, type ToolInvocation, type ToolOutput } from '../tools/index.js';
import {
  SharedSkillReadPolicies,
  WorkspaceErrors,
  WorkspaceOverlayApplier,
  WorkspacePathResolver,
  WorkspaceQuota,
} from '../workspace/index.js';
import {
  EXECUTE_TOOL_DESCRIPTION,
  EXECUTE_TOOL_NAME,
  executeSchema,
  type ExecuteArgs,
} from './execute-tool-schema.js';
import { Sandbox, type SandboxRun, type SandboxSkill, type SandboxSpec } from './sandbox.port.js';
import { sandboxOutcomeOf } from './sandbox-outcome.js';
import { SandboxSlots } from './sandbox-slots.js';

const SAFE_SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * `execute`: one shell command in a sandbox over the caller's workspace. The command's workspace
 * writes are applied when it ends, if they fit the quota (none of them otherwise); the run's skills
 * are there read-only. Bound only where a sandbox works on this host.
 */
@Injectable()
export class ExecuteTool implements OnModuleInit {
  constructor(
    private readonly sandbox: Sandbox,
    private readonly slots: SandboxSlots,
    private readonly resolver: WorkspacePathResolver,
    private readonly quota: WorkspaceQuota,
    private readonly applier: WorkspaceOverlayApplier,
    private readonly sharedSkills: SharedSkillReadPolicies,
    private readonly registry: ToolRegistry,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    this.registry.setAvailability(EXECUTE_TOOL_NAME, () => {
      const reason = this.sandbox.unavailableReason();
      return { available: reason === null, reason };
    });
  }

  @AgentTool({
    name: EXECUTE_TOOL_NAME,
    category: 'builtin',
    tags: ['命令'],
    displayName: '执行命令',
    description: EXECUTE_TOOL_DESCRIPTION,
    schema: executeSchema,
    sideEffects: 'execute',
    // The sandbox's own clock (at most 600 s) ends the command first.
    timeoutMs: 630_000,
  })
  async execute(args: ExecuteArgs, invocation: ToolInvocation): Promise<ToolOutput> {
    const { user, workdir } = invocation.context;
    const release = this.slots.take(user.id);
    try {
      const cwd = await this.resolver.resolve(user, workdir, { access: 'write', workdir });
      await mkdir(cwd.realPath, { recursive: true });
      const quotaBytes = this.config.workspace.quotaBytes;
      const run = await this.runCounted({
        command: args.command,
        userData: this.resolver.userDataRoot(user),
        cwd: cwd.virtualPath,
        skills: await this.skillsOf(invocation),
        timeoutMs: (args.timeout_s ?? this.config.sandbox.timeoutSeconds) * 1000,
        signal: invocation.signal,
        maxWriteBytes: quotaBytes,
      });
      try {
        const { result } = run;
        if (result.overQuota) {
          const { usedBytes } = await this.quota.current(user);
          throw WorkspaceErrors.quotaExceeded(quotaBytes, usedBytes, result.writtenBytes);
        }
        invocation.signal.throwIfAborted();
        if (result.changes !== null) await this.applier.apply(user, result.changes);
        return {
          exit_code: result.exitCode,
          stdout: result.stdout,
          stderr: result.stderr,
          truncated: result.truncated,
          timed_out: result.timedOut,
          duration_ms: result.durationMs,
        };
      } finally {
        await run.dispose();
      }
    } finally {
      release();
    }
  }

  /** `Sandbox.run`, each command counted by how it ended. */
  private async runCounted(spec: SandboxSpec): Promise<SandboxRun> {
    const started = performance.now();
    try {
      const run = await this.sandbox.run(spec);
      this.metrics.sandboxExecution(sandboxOutcomeOf(run.result), run.result.durationMs / 1000);
      return run;
    } catch (error) {
      const outcome = spec.signal.aborted ? 'cancelled' : 'error';
      this.metrics.sandboxExecution(outcome, (performance.now() - started) / 1000);
      throw error;
    }
  }

  /** The run's shared and builtin skills the caller may read, as the file tools show them. */
  private async skillsOf(invocation: ToolInvocation): Promise<SandboxSkill[]> {
    const { user, skills = [] } = invocation.context;
    const shown: SandboxSkill[] = [];
    for (const slug of new Set(skills)) {
      if (!SAFE_SLUG.test(slug) || !(await this.sharedSkills.canRead(user, slug))) continue;
      const hostPath = join(this.resolver.sharedSkillsRoot(), slug);
      if (existsSync(hostPath)) shown.push({ slug, hostPath });
    }
    return shown;
  }
}
