/**
 * SQL for "the actor is inside the scope stored at `<shareConfigColumn>-><scopeName>`", the database
 * form of `inScope` (`share-config.ts`). Uses the parameters `:actorId` and `:actorDepartment`.
 */
export function scopeMemberSql(shareConfigColumn: string, scopeName: 'read_scope' | 'manage_scope'): string {
  const scope = `${shareConfigColumn}->'${scopeName}'`;
  return `(${scope}->>'level' = 'global'
      OR (${scope}->>'level' = 'department'
          AND ${scope}->'department_ids' @> jsonb_build_array(CAST(:actorDepartment AS text)))
      OR (${scope}->>'level' = 'users'
          AND ${scope}->'user_ids' @> jsonb_build_array(CAST(:actorId AS text))))`;
}
