/**
 * A recognisable but useless form of a secret for display: `tvly…abcd`. Never more than 4 characters
 * from each end, and never more than a quarter of the secret from each end (short secrets show less).
 */
export function redactSecret(secret: string): string {
  const chars = [...secret];
  const shown = Math.min(4, Math.floor(chars.length / 4));
  if (shown === 0) return '…';
  return `${chars.slice(0, shown).join('')}…${chars.slice(-shown).join('')}`;
}
