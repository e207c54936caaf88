import { Injectable } from '@nestjs/common';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { AgentTool, ToolEvents, type ToolInvocation } from '../tools/index.js';
import { isInternalWorkspacePath, WorkspacePathResolver } from '../workspace/index.js';
import { ArtifactsErrors } from './artifacts.errors.js';
import { ThreadArtifactsRepository } from './thread-artifacts.repository.js';

const refuse = ArtifactsErrors.pathRefused;

const schema = z.strictObject({
  filepaths: z.array(z.string().trim().min(1)).min(1).max(50),
});

/** Shows result files to the user as cards (preview, download, save); records them on the thread. */
@Injectable()
export class PresentArtifactsTool {
  constructor(
    private readonly resolver: WorkspacePathResolver,
    private readonly artifacts: ThreadArtifactsRepository,
    private readonly events: ToolEvents,
  ) {}

  @AgentTool({
    name: 'present_artifacts',
    category: 'builtin',
    tags: ['文件', '交付'],
    displayName: '展示文件',
    description:
      'Present finished result files to the user as file cards they can preview, download or save. ' +
      'Pass absolute paths of existing files in the current workdir (e.g. /home/gem/user-data/workdir/<project>/outputs/report.md), ' +
      "the user's data or a readable skill. All paths must be valid or nothing is presented. " +
      'Do not present internal files such as large_tool_results/.',
    schema,
    resources: [{ kind: 'workspace_paths', arg: 'filepaths', access: 'read' }],
    forbiddenForSubagents: true,
  })
  async present(args: z.infer<typeof schema>, invocation: ToolInvocation): Promise<string> {
    const { context } = invocation;
    const paths: string[] = [];
    for (const raw of args.filepaths) {
      if (!raw.startsWith('/')) throw refuse(raw, 'not_absolute', `"${raw}" is not an absolute path.`);
      if (isInternalWorkspacePath(raw)) {
        throw refuse(raw, 'internal_file', `"${raw}" is an internal file and cannot be presented.`);
      }
      const resolved = await this.resolver.resolve(context.user, raw, { access: 'read' });
      const info = await stat(resolved.realPath).catch(() => null);
      if (info === null) throw refuse(raw, 'not_found', `"${raw}" does not exist.`);
      if (!info.isFile()) throw refuse(raw, 'not_a_file', `"${raw}" is not a regular file.`);
      if (!paths.includes(resolved.virtualPath)) paths.push(resolved.virtualPath);
    }
    await this.artifacts.append(context.threadId, context.runId, context.user.id, paths);
    await this.events.emit(context, { type: 'artifacts', payload: { paths } });
    return `Presented ${paths.length} file${paths.length === 1 ? '' : 's'} to the user: ${paths.join(', ')}`;
  }
}
