import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  type ToolExecutionContext,
  type ToolResourceAuthorizer,
  ToolResourceAuthorizers,
} from '../tools/index.js';
import { WorkspacePathResolver, type WorkspaceAccess } from './paths/workspace-path-resolver.js';
import { WorkspaceErrors } from './workspace.errors.js';

/**
 * Authorizes the `workspace_path` and `workspace_paths` resources of tool calls at the execution boundary:
 * each path must resolve for the calling user with the declared access. `register` takes one authorizer
 * per kind, so two small objects delegate here.
 */
@Injectable()
export class WorkspacePathAuthorizer implements OnModuleInit {
  readonly single: ToolResourceAuthorizer = {
    kind: 'workspace_path',
    authorize: (value, access, context) => this.authorizePath(value, access, context),
  };

  readonly many: ToolResourceAuthorizer = {
    kind: 'workspace_paths',
    authorize: async (value, access, context) => {
      if (!Array.isArray(value)) throw WorkspaceErrors.pathNotAllowed(String(value), 'invalid_syntax');
      for (const path of value) await this.authorizePath(path, access, context);
    },
  };

  constructor(
    private readonly resolver: WorkspacePathResolver,
    private readonly authorizers: ToolResourceAuthorizers,
  ) {}

  onModuleInit(): void {
    this.authorizers.register(this.single);
    this.authorizers.register(this.many);
  }

  private async authorizePath(
    value: unknown,
    access: WorkspaceAccess,
    context: ToolExecutionContext,
  ): Promise<void> {
    if (typeof value !== 'string') throw WorkspaceErrors.pathNotAllowed(String(value), 'invalid_syntax');
    await this.resolver.resolveForCall(context, context.user, value, { access, workdir: context.workdir });
  }
}
