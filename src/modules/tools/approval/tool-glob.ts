/**
 * A glob over tool names: `*` matches any run of characters (none included); every other character
 * matches itself. Compiled to its literal pieces and matched by scanning, never by a regular
 * expression, so no pattern can make a match slow: a match costs at most name length × pattern length.
 */
export class ToolGlob {
  private readonly pieces: readonly string[];

  constructor(readonly pattern: string) {
    this.pieces = pattern.split('*');
  }

  matches(name: string): boolean {
    const pieces = this.pieces;
    if (pieces.length === 1) return name === pieces[0];
    const first = pieces[0];
    const last = pieces[pieces.length - 1];
    if (name.length < first.length + last.length) return false;
    if (!name.startsWith(first) || !name.endsWith(last)) return false;
    // The middle pieces in order, each at its leftmost place: leftmost leaves the most room for the rest.
    let at = first.length;
    const end = name.length - last.length;
    for (let index = 1; index < pieces.length - 1; index++) {
      const piece = pieces[index];
      if (piece === '') continue;
      const found = name.indexOf(piece, at);
      if (found === -1 || found + piece.length > end) return false;
      at = found + piece.length;
    }
    return true;
  }
}
