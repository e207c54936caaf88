/** How many characters of a client- or vendor-supplied value an error message repeats. */
export const SHOWN_CHARS = 300;

/**
 * `text` cut to its first `max` characters, `…` marking the cut (unchanged when short enough). Errors
 * echo inputs through it so that an error cannot be used to amplify output.
 */
export function truncate(text: string, max: number = SHOWN_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
