import type { McpToolAnnotations } from '../../api/types';

export type HintBadge =
  | 'readOnly'
  | 'notReadOnly'
  | 'destructive'
  | 'notDestructive'
  | 'idempotent'
  | 'notIdempotent'
  | 'openWorld'
  | 'closedWorld';

const HINTS: [keyof McpToolAnnotations, HintBadge, HintBadge][] = [
  ['readOnlyHint', 'readOnly', 'notReadOnly'],
  ['destructiveHint', 'destructive', 'notDestructive'],
  ['idempotentHint', 'idempotent', 'notIdempotent'],
  ['openWorldHint', 'openWorld', 'closedWorld'],
];

/**
 * The badges of a tool's MCP annotations: one per hint the server gave (a hint left out says nothing,
 * so no badge), in a fixed order. Anything that is not a boolean is not a hint.
 */
export function hintBadges(annotations: McpToolAnnotations | undefined): HintBadge[] {
  if (!annotations) return [];
  return HINTS.flatMap(([key, yes, no]) => {
    const value = annotations[key];
    return typeof value === 'boolean' ? [value ? yes : no] : [];
  });
}

/** The annotations' human title, when the server gave one that differs from the tool's name. */
export function toolTitle(name: string, annotations: McpToolAnnotations | undefined): string | null {
  const title = annotations?.title;
  return typeof title === 'string' && title.trim() && title.trim() !== name ? title.trim() : null;
}

/** A warning colour for the hints that mean the tool may change or reach the outside world. */
export function isCautionHint(badge: HintBadge): boolean {
  return badge === 'destructive' || badge === 'openWorld';
}
