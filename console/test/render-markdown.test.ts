import { describe, expect, it } from 'vitest';
import { HTML_PREVIEW_LANGUAGE, renderMarkdown } from '../src/markdown/render-markdown';

const FORBIDDEN_TAGS = [
  'script',
  'iframe',
  'frame',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'style',
  'object',
  'embed',
  'base',
  'meta',
  'link',
  'foreignobject',
];
const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href', 'srcdoc', 'data', 'background'];

/** The HTML as the browser builds it from `v-html`: parsed, and parsed again from its serialization. */
function mount(html: string): HTMLElement {
  const first = document.createElement('div');
  first.innerHTML = html;
  const second = document.createElement('div');
  second.innerHTML = first.innerHTML;
  return second;
}

/** Every problem that would let the HTML run something: event handlers, script URLs, active elements. */
function activeParts(html: string): string[] {
  const problems: string[] = [];
  for (const element of mount(html).querySelectorAll('*')) {
    const tag = element.tagName.toLowerCase();
    if (FORBIDDEN_TAGS.includes(tag)) problems.push(`<${tag}>`);
    for (const attribute of element.attributes) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith('on')) problems.push(`${tag}[${name}]`);
      if (name === 'style') problems.push(`${tag}[style]`);
      // What the browser sees of a URL: no whitespace nor control characters, any case.
      const value = [...attribute.value]
        .filter((char) => char.charCodeAt(0) > 0x20)
        .join('')
        .toLowerCase();
      if (
        URL_ATTRIBUTES.includes(name) &&
        (value.startsWith('javascript:') ||
          value.startsWith('vbscript:') ||
          value.startsWith('data:text/html'))
      )
        problems.push(`${tag}[${name}=${attribute.value}]`);
    }
  }
  return problems;
}

const HOSTILE: [string, string][] = [
  ['an img onerror handler', '<img src=x onerror=alert(1)>'],
  ['an img onerror handler in Markdown text', 'Look: <img src="x" onerror="alert(document.cookie)"> nice'],
  ['a Markdown javascript: link', '[x](javascript:alert(1))'],
  ['a Markdown javascript: link with an entity', '[x](javascript&#58;alert(1))'],
  ['a mixed-case javascript: anchor', '<a href="JaVaScRiPt:alert(1)">y</a>'],
  ['a javascript: anchor hidden by whitespace', '<a href="  java&#x09;script:alert(1)">y</a>'],
  ['a vbscript: anchor', '<a href="vbscript:msgbox(1)">y</a>'],
  ['a Markdown data:text/html link', '[d](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
  ['a data:text/html anchor', '<a href="data:text/html,<script>alert(1)</script>">d</a>'],
  ['a Markdown javascript: image', '![i](javascript:alert(1))'],
  ['an SVG script', '<svg><script>alert(1)</script></svg>'],
  ['an SVG onload handler', '<svg onload=alert(1)>'],
  [
    'an SVG animate setting an href',
    '<svg><a><animate attributeName=href values=javascript:alert(1) /></a></svg>',
  ],
  [
    'an SVG foreignObject',
    '<svg><foreignObject><iframe src="javascript:alert(1)"></iframe></foreignObject></svg>',
  ],
  ['an iframe', '<iframe src="https://evil.example"></iframe>'],
  ['an srcdoc iframe', '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
  [
    'a form',
    '<form action="https://evil.example"><input name="a"><button formaction="javascript:alert(1)">go</button></form>',
  ],
  ['a style element', '<style>body { display: none }</style>'],
  ['a style attribute', '<p style="position:fixed;inset:0">cover</p>'],
  ['an object', '<object data="javascript:alert(1)"></object>'],
  ['an embed', '<embed src="javascript:alert(1)">'],
  ['a script', '<script>alert(1)</script>'],
  ['a base element', '<base href="javascript:alert(1)//">'],
  ['a meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ['a math mXSS payload', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
  [
    'a math mXSS payload with a comment',
    '<math><mtext><h1><a><h6></a></h6><mglyph><svg><mtext><style><a title="</style><img src onerror=alert(1)>"></style></h1>',
  ],
  ['a math javascript: href', '<math><mi xlink:href="javascript:alert(1)">x</mi></math>'],
  ['a noscript breakout', '<noscript><p title="</noscript><img src=x onerror=alert(1)>">'],
  ['a details ontoggle', '<details open ontoggle=alert(1)>'],
  ['an onclick on an ordinary tag', '<p onclick="alert(1)">p</p>'],
  ['a raw HTML block inside a list', '- item\n\n  <img src=x onerror=alert(1)>'],
];

describe('renderMarkdown: hostile model output', () => {
  it('is checked by a test helper that does flag the raw payloads', () => {
    for (const raw of [
      '<img src=x onerror=alert(1)>',
      '<a href="JaVaScRiPt:alert(1)">y</a>',
      '<a href=" java&#x09;script:alert(1)">y</a>',
      '<a href="data:text/html,x">d</a>',
      '<svg><script>alert(1)</script></svg>',
      '<iframe></iframe>',
      '<form></form>',
      '<style></style>',
      '<object></object>',
      '<p style="x">p</p>',
    ])
      expect(activeParts(raw), raw).not.toEqual([]);
  });

  it.each(HOSTILE)('renders %s without anything executable', (_name, input) => {
    const { html } = renderMarkdown(input);
    expect(activeParts(html)).toEqual([]);
    expect(html.toLowerCase()).not.toContain('<script');
  });

  it('keeps no onerror attribute on an img, and no other attribute starting with on', () => {
    const root = mount(renderMarkdown('<img src=x onerror=alert(1)>').html);
    const img = root.querySelector('img');
    expect(img).not.toBeNull();
    expect(img!.hasAttribute('onerror')).toBe(false);
    expect(img!.getAttributeNames().filter((name) => name.startsWith('on'))).toEqual([]);
  });

  it.each([
    ['[x](javascript:alert(1))', 'x'],
    ['<a href="JaVaScRiPt:alert(1)">y</a>', 'y'],
    ['[d](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)', 'd'],
  ])('drops the href of the dangerous link in %s but keeps its text', (input, text) => {
    const anchor = mount(renderMarkdown(input).html).querySelector('a');
    expect(anchor?.textContent).toBe(text);
    expect(anchor?.hasAttribute('href')).toBe(false);
  });

  it('removes the script inside an SVG and the onload of an SVG', () => {
    expect(
      mount(renderMarkdown('<svg><script>alert(1)</script></svg>').html).querySelector('script'),
    ).toBeNull();
    const svg = mount(renderMarkdown('<svg onload=alert(1)>').html).querySelector('svg');
    expect(svg?.hasAttribute('onload') ?? false).toBe(false);
  });

  it('removes iframes, forms and their fields, styles and objects entirely', () => {
    const root = mount(
      renderMarkdown(
        '<iframe src="https://evil.example"></iframe><form><input><button>go</button></form>' +
          '<style>p{}</style><object data="x"></object><embed src="x">',
      ).html,
    );
    expect(root.querySelectorAll('iframe, form, input, button, style, object, embed')).toHaveLength(0);
  });
});

describe('renderMarkdown: links', () => {
  it.each([
    '<svg><a href="https://evil.example/login"><text>Click</text></a></svg>',
    '<svg><a xlink:href="https://evil.example/login" target="_top"><text>Click</text></a></svg>',
    '<img src="x" usemap="#m"><map name="m"><area shape="rect" coords="0,0,9,9" href="https://evil.example" target="_top"></map>',
    '<math><mi href="https://evil.example">x</mi></math>',
    '<p target="_top">a paragraph with a target</p>',
  ])('never leaves a link that opens in the console tab itself: %s', (input) => {
    for (const el of mount(renderMarkdown(input).html).querySelectorAll('[href], [xlink\\:href], [target]'))
      expect([el.getAttribute('target'), el.getAttribute('rel')?.includes('noopener')]).toEqual([
        '_blank',
        true,
      ]);
  });

  it('opens a Markdown link in a new tab with rel noopener', () => {
    const anchor = mount(renderMarkdown('[docs](https://example.com/docs)').html).querySelector('a');
    expect(anchor?.getAttribute('href')).toBe('https://example.com/docs');
    expect(anchor?.getAttribute('target')).toBe('_blank');
    expect(anchor?.getAttribute('rel')?.split(/\s+/)).toEqual(
      expect.arrayContaining(['noopener', 'noreferrer']),
    );
  });

  it('opens autolinks and raw HTML links in a new tab too, overriding the target and rel they carry', () => {
    const anchors = mount(
      renderMarkdown(
        '<https://auto.example> and <a href="https://raw.example" target="_self" rel="opener">raw</a>',
      ).html,
    ).querySelectorAll('a');
    expect(anchors).toHaveLength(2);
    for (const anchor of anchors) {
      expect(anchor.getAttribute('target')).toBe('_blank');
      const rel = anchor.getAttribute('rel')?.split(/\s+/) ?? [];
      expect(rel).toContain('noopener');
      expect(rel).not.toContain('opener');
    }
  });

  it('keeps mailto links', () => {
    const anchor = mount(renderMarkdown('[mail](mailto:a@example.com)').html).querySelector('a');
    expect(anchor?.getAttribute('href')).toBe('mailto:a@example.com');
  });
});

describe('renderMarkdown: ordinary Markdown', () => {
  it('renders headings, emphasis, lists, inline code, code blocks and tables', () => {
    const root = mount(
      renderMarkdown(
        [
          '# Title',
          '## Part',
          '',
          'Some **bold** and *italic* text with `x < y`.',
          '',
          '- one',
          '- two',
          '',
          '1. first',
          '2. second',
          '',
          '```ts',
          'const ok = 1 < 2 && "<b>";',
          '```',
          '',
          '| name | size |',
          '| ---- | ---- |',
          '| a    | 1    |',
          '| b    | 2    |',
        ].join('\n'),
      ).html,
    );
    expect(root.querySelector('h1')?.textContent).toBe('Title');
    expect(root.querySelector('h2')?.textContent).toBe('Part');
    expect(root.querySelector('strong')?.textContent).toBe('bold');
    expect(root.querySelector('em')?.textContent).toBe('italic');
    expect([...root.querySelectorAll('ul > li')].map((li) => li.textContent)).toEqual(['one', 'two']);
    expect([...root.querySelectorAll('ol > li')].map((li) => li.textContent)).toEqual(['first', 'second']);
    expect(root.querySelector('p > code')?.textContent).toBe('x < y');
    const block = root.querySelector('pre > code');
    expect(block?.textContent).toBe('const ok = 1 < 2 && "<b>";\n');
    expect(block?.className).toBe('language-ts');
    expect(block?.querySelector('b')).toBeNull();
    expect([...root.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['name', 'size']);
    expect([...root.querySelectorAll('tbody tr')].map((tr) => tr.textContent?.replace(/\s+/g, ''))).toEqual([
      'a1',
      'b2',
    ]);
  });

  it('turns single newlines into line breaks', () => {
    expect(mount(renderMarkdown('line one\nline two').html).querySelectorAll('p > br')).toHaveLength(1);
  });

  it('shows an ordinary html fence as escaped code, not as markup', () => {
    const { html, previews } = renderMarkdown('```html\n<img src=x onerror=alert(1)>\n```');
    expect(previews).toEqual([]);
    const root = mount(html);
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelector('pre > code')?.textContent).toBe('<img src=x onerror=alert(1)>\n');
  });
});

describe('renderMarkdown: html:preview fences', () => {
  it('uses the fence language the html-preview skill writes', () => {
    expect(HTML_PREVIEW_LANGUAGE).toBe('html:preview');
  });

  it('replaces an html:preview fence with a placeholder and returns its HTML in previews, not inlined', () => {
    const page = '<h1>Report</h1>\n<script>alert(1)</script>';
    const { html, previews } = renderMarkdown(`Before\n\n\`\`\`html:preview\n${page}\n\`\`\`\n\nAfter`);
    expect(previews).toEqual(['<h1>Report</h1>\n']);
    const root = mount(html);
    const slots = root.querySelectorAll<HTMLElement>('[data-html-preview]');
    expect(slots).toHaveLength(1);
    expect(slots[0].dataset.htmlPreview).toBe('0');
    expect(slots[0].innerHTML).toBe('');
    expect(html).not.toContain('Report');
    expect(html).not.toContain('alert');
    expect(root.querySelector('pre')).toBeNull();
    expect(root.textContent).toContain('Before');
    expect(root.textContent).toContain('After');
  });

  it('keeps a preview static: styles stay, scripts, handlers, forms, frames and external links go', () => {
    const fragment = [
      '<style>.card { display: grid; }</style>',
      '<div class="card" style="color: #123">Revenue <b>+4%</b></div>',
      '<img src="x" onerror="alert(1)">',
      '<script>alert(2)</script>',
      '<form action="/api/auth/token"><input name="u"><button>go</button></form>',
      '<iframe src="https://evil.example"></iframe>',
      '<link rel="stylesheet" href="https://evil.example/x.css">',
      '<a href="javascript:alert(3)">x</a>',
    ].join('');
    const [preview] = renderMarkdown(`\`\`\`html:preview\n${fragment}\n\`\`\``).previews;
    const root = mount(preview);
    expect(root.querySelector('style')?.textContent).toBe('.card { display: grid; }');
    expect(root.querySelector('.card')?.getAttribute('style')).toBe('color: #123');
    expect(root.querySelectorAll('script, form, input, button, iframe, link, [onerror]')).toHaveLength(0);
    expect(root.querySelector('a')?.getAttribute('href') ?? '').not.toMatch(/javascript:/i);
  });

  it('numbers several previews in order', () => {
    const { html, previews } = renderMarkdown(
      '```html:preview\n<p>one</p>\n```\n\ntext\n\n```html:preview\n<p>two</p>\n```',
    );
    expect(previews).toEqual(['<p>one</p>', '<p>two</p>']);
    const indexes = [...mount(html).querySelectorAll<HTMLElement>('[data-html-preview]')].map(
      (slot) => slot.dataset.htmlPreview,
    );
    expect(indexes).toEqual(['0', '1']);
  });

  it('starts the previews afresh at each call', () => {
    renderMarkdown('```html:preview\n<p>first</p>\n```');
    expect(renderMarkdown('```html:preview\n<p>second</p>\n```').previews).toEqual(['<p>second</p>']);
    expect(renderMarkdown('no fence').previews).toEqual([]);
  });
});
