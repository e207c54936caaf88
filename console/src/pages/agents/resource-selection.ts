import type { ResourceSelection } from '../../api/types';

/**
 * The editor's state of one resource field. `hidden`: saved ids the editor cannot see (not among their
 * options); the service keeps them when a non-empty list is saved, and only "Clear all" removes them.
 */
export interface SelectionDraft {
  mode: 'all' | 'fixed';
  chosen: string[];
  hidden: string[];
  /** "Clear all" was pressed and nothing chosen since: the hidden ids go too. */
  dropHidden: boolean;
}

export function selectionDraft(saved: ResourceSelection, options: readonly string[]): SelectionDraft {
  if (saved === 'all') return { mode: 'all', chosen: [], hidden: [], dropHidden: false };
  const visible = new Set(options);
  return {
    mode: 'fixed',
    chosen: saved.filter((value) => visible.has(value)),
    hidden: saved.filter((value) => !visible.has(value)),
    dropHidden: false,
  };
}

/** "All, including new": every resource the running user may use, now and later. */
export function chooseAll(draft: SelectionDraft): SelectionDraft {
  return { ...draft, mode: 'all', chosen: [], dropHidden: false };
}

/** A fixed selection: starts from nothing visible chosen (the hidden ids stay). */
export function chooseFixed(draft: SelectionDraft): SelectionDraft {
  return draft.mode === 'fixed' ? draft : { ...draft, mode: 'fixed', chosen: [] };
}

/** "Clear all": nothing, including what the editor cannot see. */
export function clearAll(draft: SelectionDraft): SelectionDraft {
  return { ...draft, mode: 'fixed', chosen: [], dropHidden: true };
}

export function toggle(draft: SelectionDraft, value: string, on: boolean): SelectionDraft {
  const rest = draft.chosen.filter((chosen) => chosen !== value);
  const chosen = on ? [...rest, value] : rest;
  // Choosing again after "Clear all" saves a non-empty list, which keeps the hidden ids.
  return { ...draft, mode: 'fixed', chosen, dropHidden: draft.dropHidden && chosen.length === 0 };
}

/** What the form sends: the hidden ids first (as the service keeps them), then the visible choice. */
export function submitted(draft: SelectionDraft): ResourceSelection {
  if (draft.mode === 'all') return 'all';
  if (draft.dropHidden) return [];
  return [...draft.hidden, ...draft.chosen];
}

/** How many saved ids this save keeps that the editor cannot see (0 when they are being removed). */
export function hiddenKept(draft: SelectionDraft): number {
  return draft.mode === 'all' || draft.dropHidden ? 0 : draft.hidden.length;
}
