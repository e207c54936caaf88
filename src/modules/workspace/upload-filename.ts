const MAX_NAME_BYTES = 180;
const REFUSED_CHARACTERS = new Set('<>:"|?*');

function isKept(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  // An unpaired surrogate (a code point of its own here) has no UTF-8 form to store.
  const loneSurrogate = code >= 0xd800 && code <= 0xdfff;
  return code >= 0x20 && code !== 0x7f && !loneSurrogate && !REFUSED_CHARACTERS.has(character);
}

/** `/[\s.]+$/` without the regex, which retries every dot of a long inner run: quadratic. */
function trimDotsAndBlanksEnd(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === '.' || /\s/.test(text[end - 1]))) end -= 1;
  return text.slice(0, end);
}

/**
 * A client-sent file name reduced to one safe, visible name: only the part after the last `/` or `\`,
 * no control (NUL included), unpaired surrogate or shell-unfriendly characters, no leading dots (no hidden files, no `..`), at most
 * 180 UTF-8 bytes with the extension kept.
 */
export function sanitizeUploadFilename(raw: string): string {
  const base = raw.normalize('NFC').split(/[/\\]/).pop() ?? '';
  const spaced = [...base]
    .filter(isKept)
    .join('')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+/, '');
  const cleaned = trimDotsAndBlanksEnd(spaced);
  if (cleaned === '') return 'upload';
  const { stem, extension } = splitExtension(cleaned);
  const characters = [...stem];
  let budget = MAX_NAME_BYTES - Buffer.byteLength(extension, 'utf8');
  let kept = 0;
  while (kept < characters.length && budget - Buffer.byteLength(characters[kept], 'utf8') >= 0) {
    budget -= Buffer.byteLength(characters[kept], 'utf8');
    kept += 1;
  }
  return (kept === 0 ? 'upload' : characters.slice(0, kept).join('')) + extension;
}

export function splitExtension(name: string): { stem: string; extension: string } {
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  return { stem: name.slice(0, name.length - extension.length), extension };
}

/** `report.pdf`, `report-1.pdf`, `report-2.pdf`, …: the names tried until one is free. */
export function* candidateNames(name: string, attempts: number): Generator<string> {
  const { stem, extension } = splitExtension(name);
  yield name;
  for (let n = 1; n < attempts; n++) yield `${stem}-${n}${extension}`;
}
