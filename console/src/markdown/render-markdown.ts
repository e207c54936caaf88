import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';

/** The fence language the `html-preview` skill writes: its HTML is shown rendered, in a sandboxed frame. */
export const HTML_PREVIEW_LANGUAGE = 'html:preview';

export interface RenderedMarkdown {
  /** Sanitized HTML: safe to insert with `v-html`. */
  html: string;
  /**
   * The HTML of each `html:preview` fence, sanitized (static markup and styles only); its placeholder is
   * `<div data-html-preview="<index>">`.
   */
  previews: string[];
}

const purifier = DOMPurify();
const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';
// Every link leaves the console in a new tab without telling the target where it came from. Only HTML
// `<a>` and `<area>` may link: an SVG or MathML element loses its `href`, and no element keeps a
// `target` of its own (`_top` would take the console's tab).
purifier.addHook('afterSanitizeAttributes', (node) => {
  const name = node.nodeName.toLowerCase();
  const html = node.namespaceURI === HTML_NAMESPACE;
  node.removeAttribute('target');
  if (html && (name === 'a' || name === 'area') && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  } else if (!html) {
    node.removeAttribute('href');
    node.removeAttribute('xlink:href');
  }
});

/**
 * Model output as HTML that cannot run anything: Markdown through marked, then DOMPurify (scripts, event
 * handlers, `javascript:` URLs, SVG scripts, forms and frames are removed). `html:preview` fences become
 * placeholders, filled by the caller with sandboxed frames.
 */
export function renderMarkdown(text: string): RenderedMarkdown {
  const previews: string[] = [];
  const marked = new Marked({ gfm: true, breaks: true, async: false });
  marked.use({
    renderer: {
      code(token: Tokens.Code) {
        if (token.lang?.trim() !== HTML_PREVIEW_LANGUAGE) return false;
        previews.push(sanitizePreview(token.text));
        return `<div data-html-preview="${previews.length - 1}" class="html-preview"></div>`;
      },
    },
  });
  const raw = marked.parse(text) as string;
  const html = purifier.sanitize(raw, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
    ADD_ATTR: ['target'],
  });
  return { html, previews };
}

/**
 * An `html:preview` fragment as the `html-preview` skill promises it is shown: static markup with its
 * inline styles and `<style>` element, nothing that runs, submits or loads a frame. The frame it is shown
 * in has an empty sandbox too.
 */
function sanitizePreview(fragment: string): string {
  return purifier.sanitize(fragment, {
    FORCE_BODY: true,
    ADD_TAGS: ['style'],
    FORBID_TAGS: [
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'iframe',
      'object',
      'embed',
      'link',
      'meta',
      'base',
    ],
  });
}
