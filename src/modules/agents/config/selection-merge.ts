import { ALL, type ResourceSelection } from './agent-config.js';

export interface MergedSelection {
  value: ResourceSelection;
  /** Submitted ids the editor may not use and that were not already saved: the request is refused. */
  rejected: string[];
}

/**
 * Applies an editor's submitted selection to the saved one (`docs/api.md` "Agents"):
 * `"all"` replaces everything; `[]` clears everything (inaccessible references included); a non-empty
 * list keeps the saved references the editor cannot use, in their order, then appends the editor's
 * usable choices in submitted order. Submitting a reference the editor cannot use is refused unless it
 * is already saved (it is then simply kept).
 */
export function mergeSelection(
  saved: ResourceSelection,
  submitted: ResourceSelection,
  usable: ReadonlySet<string>,
): MergedSelection {
  if (submitted === ALL) return { value: ALL, rejected: [] };
  if (submitted.length === 0) return { value: [], rejected: [] };
  const kept = saved === ALL ? [] : saved.filter((id) => !usable.has(id));
  const keptSet = new Set(kept);
  const rejected = submitted.filter((id) => !usable.has(id) && !keptSet.has(id));
  const chosen = submitted.filter((id) => usable.has(id) && !keptSet.has(id));
  return { value: [...kept, ...chosen], rejected };
}
