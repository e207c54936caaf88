import { defaultShareConfig, type ShareActor, type ShareConfig, type ShareScope } from './share-config.js';
import { scopeWithin, type DepartmentsOfUsers } from './scope-containment.js';

export interface ShareConfigInput {
  version: 2;
  read_scope?: ShareScope | null;
  manage_scope?: ShareScope | null;
}

/** The owning module's errors for the two refusals (each module names its own codes). */
export interface ShareConfigRefusals {
  scopeForbidden(level: ShareScope['level']): Error;
  manageOutsideRead(): Error;
}

/**
 * Turns a submitted share config into the saved one: the read scope defaults to the creator, the manage
 * scope to nobody but the creator. A normal user may only name users; the manage scope must lie inside
 * the read scope.
 */
export async function resolveShareConfig(
  actor: ShareActor,
  creatorId: string | null,
  input: ShareConfigInput,
  departmentsOf: DepartmentsOfUsers,
  refusals: ShareConfigRefusals,
): Promise<ShareConfig> {
  const fallback = creatorId === null ? null : defaultShareConfig(creatorId).read_scope;
  const config: ShareConfig = {
    version: 2,
    read_scope: input.read_scope === undefined ? fallback : input.read_scope,
    manage_scope: input.manage_scope ?? null,
  };
  for (const scope of [config.read_scope, config.manage_scope]) {
    if (scope !== null && scope.level !== 'users' && actor.role === 'user') {
      throw refusals.scopeForbidden(scope.level);
    }
  }
  if (!(await scopeWithin(config.manage_scope, config.read_scope, departmentsOf))) {
    throw refusals.manageOutsideRead();
  }
  return config;
}
