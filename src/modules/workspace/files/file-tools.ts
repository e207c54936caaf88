import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { AppConfig } from '../../../config/app-config.js';
import { AgentTool, type ToolInvocation, type ToolOutput } from '../../tools/index.js';
import type { ResolvedWorkspacePath, WorkspaceAccess } from '../paths/workspace-path-resolver.js';
import { WorkspacePathResolver } from '../paths/workspace-path-resolver.js';
import { WorkspaceQuota } from '../quota/workspace-quota.js';
import { WORKSPACE_LIMITS } from '../workspace-limits.js';
import {
  editFileSchema,
  FILE_TOOL_DESCRIPTIONS,
  globSchema,
  grepSchema,
  lsSchema,
  readFileSchema,
  writeFileSchema,
} from './file-tool-schemas.js';
import { globFiles } from './glob-files.js';
import { grepFiles } from './grep-files.js';
import { listDirectory } from './list-directory.js';
import { readTextFile } from './read-text-file.js';
import { editTextFile, writeTextFile, type QuotaCheckedWrite } from './write-text-file.js';

const FILE_TAGS = ['文件'];

/**
 * The workspace file tools standing in for the sandbox backend. Every path goes through the resolver
 * for the calling user (the executor's resource guard checked it too; this is the check that counts).
 */
@Injectable()
export class FileTools {
  /** A page of read_file stays within what the model gets inline, so it is never offloaded. */
  private readonly readPageChars: number;

  constructor(
    private readonly resolver: WorkspacePathResolver,
    private readonly quota: WorkspaceQuota,
    config: AppConfig,
  ) {
    this.readPageChars = Math.min(WORKSPACE_LIMITS.read.maxOutputChars, config.tools.resultInlineChars);
  }

  @AgentTool({
    name: 'ls',
    category: 'builtin',
    tags: FILE_TAGS,
    displayName: '列出目录',
    description: FILE_TOOL_DESCRIPTIONS.ls,
    schema: lsSchema,
    resources: [{ kind: 'workspace_path', arg: 'path', access: 'read' }],
  })
  async ls(args: z.infer<typeof lsSchema>, invocation: ToolInvocation): Promise<ToolOutput> {
    return listDirectory(await this.resolve(invocation, args.path, 'read'));
  }

  @AgentTool({
    name: 'read_file',
    category: 'builtin',
    tags: FILE_TAGS,
    displayName: '读取文件',
    description: FILE_TOOL_DESCRIPTIONS.read_file,
    schema: readFileSchema,
    resources: [{ kind: 'workspace_path', arg: 'file_path', access: 'read' }],
    boundsOwnOutput: true,
  })
  async readFile(args: z.infer<typeof readFileSchema>, invocation: ToolInvocation): Promise<ToolOutput> {
    return readTextFile(await this.resolve(invocation, args.file_path, 'read'), {
      offset: args.offset ?? 0,
      limit: args.limit ?? WORKSPACE_LIMITS.read.defaultLineLimit,
      maxChars: this.readPageChars,
    });
  }

  @AgentTool({
    name: 'write_file',
    category: 'builtin',
    tags: FILE_TAGS,
    displayName: '写入文件',
    description: FILE_TOOL_DESCRIPTIONS.write_file,
    schema: writeFileSchema,
    resources: [{ kind: 'workspace_path', arg: 'file_path', access: 'write' }],
    sideEffects: 'workspace',
  })
  async writeFile(args: z.infer<typeof writeFileSchema>, invocation: ToolInvocation): Promise<ToolOutput> {
    const target = await this.resolve(invocation, args.file_path, 'write');
    return { ...(await writeTextFile(target, args.content, this.quotaChecked(invocation, target))) };
  }

  @AgentTool({
    name: 'edit_file',
    category: 'builtin',
    tags: FILE_TAGS,
    displayName: '编辑文件',
    description: FILE_TOOL_DESCRIPTIONS.edit_file,
    schema: editFileSchema,
    resources: [{ kind: 'workspace_path', arg: 'file_path', access: 'write' }],
    sideEffects: 'workspace',
  })
  async editFile(args: z.infer<typeof editFileSchema>, invocation: ToolInvocation): Promise<ToolOutput> {
    const target = await this.resolve(invocation, args.file_path, 'write');
    const edit = {
      oldString: args.old_string,
      newString: args.new_string,
      replaceAll: args.replace_all ?? false,
    };
    return { ...(await editTextFile(target, edit, this.quotaChecked(invocation, target))) };
  }

  @AgentTool({
    name: 'glob',
    category: 'builtin',
    tags: FILE_TAGS,
    displayName: '查找文件',
    description: FILE_TOOL_DESCRIPTIONS.glob,
    schema: globSchema,
    resources: [{ kind: 'workspace_path', arg: 'path', access: 'read' }],
  })
  async glob(args: z.infer<typeof globSchema>, invocation: ToolInvocation): Promise<ToolOutput> {
    return globFiles(await this.resolve(invocation, args.path, 'read'), args.pattern, invocation.signal);
  }

  @AgentTool({
    name: 'grep',
    category: 'builtin',
    tags: FILE_TAGS,
    displayName: '搜索内容',
    description: FILE_TOOL_DESCRIPTIONS.grep,
    schema: grepSchema,
    resources: [{ kind: 'workspace_path', arg: 'path', access: 'read' }],
  })
  async grep(args: z.infer<typeof grepSchema>, invocation: ToolInvocation): Promise<ToolOutput> {
    return grepFiles(await this.resolve(invocation, args.path, 'read'), {
      pattern: args.pattern,
      literal: args.literal ?? false,
      caseInsensitive: args.case_insensitive ?? false,
      glob: args.glob,
      signal: invocation.signal,
    });
  }

  private quotaChecked(invocation: ToolInvocation, target: ResolvedWorkspacePath): QuotaCheckedWrite {
    return (newBytes, write) =>
      this.quota.replaceFile(invocation.context.user, target.realPath, newBytes, write);
  }

  /** An omitted path means the project workdir. The boundary's resource check resolved a given one. */
  private resolve(
    invocation: ToolInvocation,
    path: string | undefined,
    access: WorkspaceAccess,
  ): Promise<ResolvedWorkspacePath> {
    const { context } = invocation;
    const { user, workdir } = context;
    return this.resolver.resolvedForCall(context, user, path ?? workdir, { access, workdir });
  }
}
