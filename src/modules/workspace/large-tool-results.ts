import { Injectable, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LargeResultOffloader, type LargeResultStore, type ToolInvocation } from '../tools/index.js';
import { onPath } from './files/fs-errors.js';
import { LARGE_TOOL_RESULTS_DIR } from './paths/virtual-paths.js';
import { WorkspacePathResolver } from './paths/workspace-path-resolver.js';
import { WorkspaceQuota } from './quota/workspace-quota.js';
import { WORKSPACE_LIMITS } from './workspace-limits.js';

/** tool_call_ids come from the model: keep them to one safe file name. */
function fileNameFor(toolCallId: string): string {
  const safe = toolCallId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 128);
  return `${safe === '' ? randomUUID() : safe}.txt`;
}

/**
 * Keeps an oversized tool output out of the model's context: the full text goes to
 * `<workdir>/large_tool_results/<tool_call_id>.txt` and the model gets its head, its tail and the path to
 * read on. Registered as the execution boundary's large-result store, so every tool source passes here.
 */
@Injectable()
export class LargeToolResults implements LargeResultStore, OnModuleInit {
  constructor(
    private readonly resolver: WorkspacePathResolver,
    private readonly quota: WorkspaceQuota,
    private readonly offloader: LargeResultOffloader,
  ) {}

  onModuleInit(): void {
    this.offloader.register(this);
  }

  /** The output itself when it is small enough, otherwise a short reference to the saved file. */
  async offload(
    output: string,
    invocation: ToolInvocation,
    thresholdChars: number = WORKSPACE_LIMITS.largeResult.thresholdChars,
  ): Promise<string> {
    if (output.length <= thresholdChars) return output;
    const saved = await this.save(output, invocation);
    const { headChars, tailChars } = WORKSPACE_LIMITS.largeResult;
    return (
      `This result is too large to show (${output.length} characters). It was saved to ${saved}; ` +
      'read it in parts with read_file (offset, limit) or search it with grep. It begins:\n\n' +
      `${output.slice(0, headChars)}\n…\n\nIt ends:\n\n…\n${output.slice(-tailChars)}`
    );
  }

  private async save(output: string, invocation: ToolInvocation): Promise<string> {
    const { user, workdir } = invocation.context;
    const target = await this.resolver.resolve(
      user,
      `${LARGE_TOOL_RESULTS_DIR}/${fileNameFor(invocation.toolCallId)}`,
      { access: 'write', workdir },
    );
    await this.quota.replaceFile(user, target.realPath, Buffer.byteLength(output, 'utf8'), () =>
      onPath(target.virtualPath, async () => {
        await mkdir(dirname(target.realPath), { recursive: true });
        await writeFile(target.realPath, output, 'utf8');
      }),
    );
    return target.virtualPath;
  }
}
