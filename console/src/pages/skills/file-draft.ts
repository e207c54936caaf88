import type { SkillFile } from '../../api/types';

/**
 * One open file of a skill: what the service last had (`base`), what the user has typed (`text`), and,
 * after a save was refused because someone else saved first, the newer version (`conflict`). Every change
 * returns a new draft; nothing here talks to the service.
 */
export interface FileDraft {
  path: string;
  base: { content: string; revision: string };
  text: string;
  conflict: { content: string; revision: string } | null;
}

export function openedDraft(file: SkillFile): FileDraft {
  return {
    path: file.path,
    base: { content: file.content, revision: file.revision },
    text: file.content,
    conflict: null,
  };
}

export function edited(draft: FileDraft, text: string): FileDraft {
  return { ...draft, text };
}

/** Unsaved: the text differs from the service's, or a conflict is still open. */
export function isDirty(draft: FileDraft | null): boolean {
  return draft !== null && (draft.text !== draft.base.content || draft.conflict !== null);
}

/**
 * What a save sends: the user's text over the revision it means to replace. With a conflict open that is
 * the newer revision, since saving then means "mine over theirs, knowingly".
 */
export function saveRequest(draft: FileDraft): SkillFile {
  return {
    path: draft.path,
    content: draft.text,
    revision: (draft.conflict ?? draft.base).revision,
  };
}

/** The service took the save: its answer is the new base; what the user typed meanwhile stays. */
export function saved(draft: FileDraft, answer: SkillFile, sentText: string): FileDraft {
  return {
    ...draft,
    base: { content: answer.content, revision: answer.revision },
    text: draft.text === sentText ? answer.content : draft.text,
    conflict: null,
  };
}

/** The save was refused (409): keep the user's text, hold the service's newer version beside it. */
export function conflicted(draft: FileDraft, newer: SkillFile): FileDraft {
  return { ...draft, conflict: { content: newer.content, revision: newer.revision } };
}

/** Resolving by taking the service's version: the user's text is dropped. */
export function tookTheirs(draft: FileDraft): FileDraft {
  if (!draft.conflict) return draft;
  return { ...draft, base: draft.conflict, text: draft.conflict.content, conflict: null };
}
