import { Injectable, type OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppConfig } from '../../config/app-config.js';
import { DomainError } from '../../common/errors/index.js';
import {
  LargeResultOffloader,
  type LargeResultStore,
  type ToolInvocation,
  type ToolResultToOffload,
} from '../tools/index.js';
import { onPath } from './files/fs-errors.js';
import { largeResultLayout } from './large-result-layout.js';
import { largeResultPreview } from './large-result-preview.js';
import { LARGE_TOOL_RESULTS_DIR } from './paths/virtual-paths.js';
import { WorkspacePathResolver } from './paths/workspace-path-resolver.js';
import { replacedBytes } from './quota/measure-usage.js';
import { WorkspaceQuota } from './quota/workspace-quota.js';
import { WORKSPACE_LIMITS } from './workspace-limits.js';
import { WorkspaceErrorCode, WorkspaceErrors } from './workspace.errors.js';

/** Tool names come from MCP servers too: one safe, short file name part (`tool` when nothing is left). */
export function fileSafeToolName(toolName: string): string {
  const safe = toolName
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .slice(0, WORKSPACE_LIMITS.largeResult.maxToolNameChars)
    .replace(/^[-_]+|[-_]+$/g, '');
  return safe === '' ? 'tool' : safe;
}

/** `<tool>-<first 16 hex chars of the sha256 of the content>.txt`: the same text of a tool, the same file. */
export function largeResultFileName(toolName: string, content: Buffer): string {
  const digest = createHash('sha256').update(content).digest('hex').slice(0, 16);
  return `${fileSafeToolName(toolName)}-${digest}.txt`;
}

/**
 * Keeps an oversized tool output out of the model's context: above `tools.resultInlineChars`
 * (TOOL_RESULT_INLINE_CHARS) the full text goes to `<workdir>/large_tool_results/<tool>-<sha256
 * prefix>.txt` and the model gets its head, its tail, the path and the size. Registered as the
 * execution boundary's large-result store, so every tool source passes here.
 *
 * Content-addressed: a file already holding the same text is neither written nor charged to the
 * workspace quota again. The files are internal, never artifacts (`isInternalWorkspacePath`).
 */
@Injectable()
export class LargeToolResults implements LargeResultStore, OnModuleInit {
  private readonly inlineChars: number;

  constructor(
    private readonly resolver: WorkspacePathResolver,
    private readonly quota: WorkspaceQuota,
    private readonly offloader: LargeResultOffloader,
    config: AppConfig,
  ) {
    this.inlineChars = config.tools.resultInlineChars;
  }

  onModuleInit(): void {
    this.offloader.register(this);
  }

  /** The output itself when it is short enough, otherwise a preview naming the saved file. */
  async offload({ content, toolName, invocation }: ToolResultToOffload): Promise<string> {
    if (content.length <= this.inlineChars) return content;
    const text = largeResultLayout(content);
    const bytes = Buffer.from(text, 'utf8');
    const path = await this.save(bytes, toolName, invocation).catch((thrown: unknown) => {
      if (thrown instanceof DomainError && thrown.code === WorkspaceErrorCode.QUOTA_EXCEEDED)
        throw WorkspaceErrors.largeResultOverQuota(thrown, content.length);
      throw thrown;
    });
    return largeResultPreview(text, { path, bytes: bytes.length, inlineChars: this.inlineChars });
  }

  private async save(bytes: Buffer, toolName: string, invocation: ToolInvocation): Promise<string> {
    const { user, workdir } = invocation.context;
    const target = await this.resolver.resolve(
      user,
      `${LARGE_TOOL_RESULTS_DIR}/${largeResultFileName(toolName, bytes)}`,
      { access: 'write', workdir },
    );
    let alreadySaved = false;
    // Compared under the quota's lock: of two calls saving one text at once, the second finds it saved.
    const growthOf = async () => {
      alreadySaved = await holdsExactly(target.realPath, bytes);
      return alreadySaved ? 0 : bytes.length - (await replacedBytes(target.realPath));
    };
    await this.quota.change(user, growthOf, async () => {
      if (alreadySaved) return;
      await onPath(target.virtualPath, async () => {
        await mkdir(dirname(target.realPath), { recursive: true });
        await writeFile(target.realPath, bytes);
      });
    });
    return target.virtualPath;
  }
}

/** Whether a regular file (not a link) at `realPath` holds exactly `bytes`; a partial write does not. */
async function holdsExactly(realPath: string, bytes: Buffer): Promise<boolean> {
  const stats = await lstat(realPath).catch(() => null);
  if (stats === null || !stats.isFile() || stats.size !== bytes.length) return false;
  return (await readFile(realPath)).equals(bytes);
}
