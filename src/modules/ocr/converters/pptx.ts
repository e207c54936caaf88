import { posix } from 'node:path';
import { attributesOf, decodeXmlText } from './xml-text.js';

const OFFICE_DOCUMENT = '/officeDocument';
const SLIDE = '/slide';

/** Resolves a relationship target against the folder of the part that declares it. */
const resolveTarget = (fromFolder: string, target: string): string =>
  target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(fromFolder, target));

/** `ppt/presentation.xml` → `ppt/_rels/presentation.xml.rels` */
const relsPathOf = (part: string) => posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);

/** Relationship id → [type, resolved target] of one `.rels` part. */
function relationships(xml: string | undefined, fromFolder: string): Map<string, [string, string]> {
  const found = new Map<string, [string, string]>();
  for (const [tag] of (xml ?? '').matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
    const attributes = attributesOf(tag);
    const id = attributes.get('Id');
    const target = attributes.get('Target');
    if (id === undefined || target === undefined || attributes.get('TargetMode') === 'External') continue;
    found.set(id, [attributes.get('Type') ?? '', resolveTarget(fromFolder, target)]);
  }
  return found;
}

/** The text of each DrawingML paragraph (`a:p`) of a slide, line breaks kept, empty ones dropped. */
export function slideParagraphs(xml: string): string[] {
  const paragraphs: string[] = [];
  for (const [, body] of xml.matchAll(/<a:p(?:\s[^>]*)?>([\s\S]*?)<\/a:p>/g)) {
    let text = '';
    for (const [token, run] of body.matchAll(/<a:t(?:\s[^>]*)?>([^<]*)<\/a:t>|<a:br\b[^>]*\/>/g)) {
      text += token.startsWith('<a:br') ? '\n' : decodeXmlText(run);
    }
    if (text.trim() !== '') paragraphs.push(text.trim());
  }
  return paragraphs;
}

/** Slide parts in presentation order (`p:sldIdLst`), or by number when the order cannot be read. */
function slideOrder(files: Record<string, Uint8Array>, text: (name: string) => string | undefined): string[] {
  const main = [...relationships(text('_rels/.rels'), '').values()].find(([type]) =>
    type.endsWith(OFFICE_DOCUMENT),
  );
  const presentation = main?.[1] ?? 'ppt/presentation.xml';
  const rels = relationships(text(relsPathOf(presentation)), posix.dirname(presentation));
  const ordered = [...(text(presentation) ?? '').matchAll(/<(?:\w+:)?sldId\b[^>]*?\s\w+:id="([^"]*)"/g)]
    .map(([, id]) => rels.get(id))
    .filter((rel): rel is [string, string] => rel !== undefined && rel[0].endsWith(SLIDE))
    .map(([, target]) => target)
    .filter((target) => files[target] !== undefined);
  if (ordered.length > 0) return ordered;
  const number = (name: string) => Number(/(\d+)\.xml$/.exec(name)?.[1] ?? 0);
  return Object.keys(files)
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => number(a) - number(b));
}

/**
 * A PowerPoint deck as Markdown: `## Slide N`, then each text paragraph of its shapes as a paragraph.
 * Takes the package's XML parts, already inflated under the archive limits (`readOfficeParts`).
 */
export function convertPptx(files: Record<string, Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  const text = (name: string) => (files[name] === undefined ? undefined : decoder.decode(files[name]));
  const sections = slideOrder(files, text).map((part, index) => {
    const paragraphs = slideParagraphs(text(part) ?? '');
    return paragraphs.length === 0 ? '' : `## Slide ${index + 1}\n\n${paragraphs.join('\n\n')}`;
  });
  return Promise.resolve(sections.filter((section) => section !== '').join('\n\n'));
}
