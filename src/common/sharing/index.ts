// Share configs (v2 scopes) and the access rules on them, shared by agents, skills and knowledge bases.
export {
  resolveShareConfig,
  type ShareConfigInput,
  type ShareConfigRefusals,
} from './resolve-share-config.js';
export { scopeWithin, type DepartmentsOfUsers } from './scope-containment.js';
export { ShareConfigDto } from './share-config.dto.js';
export {
  canManage,
  canRead,
  defaultShareConfig,
  inScope,
  type AccessSubject,
  type ShareActor,
  type ShareConfig,
  type ShareScope,
} from './share-config.js';
export { scopeMemberSql } from './share-scope.sql.js';
export { isShareScope, IsShareScopeOrNull } from './share-scope.validator.js';
