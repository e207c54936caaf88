import { tidyRecognizedText } from '../../../src/modules/ocr/converters/image';
import { htmlToMarkdown } from '../../../src/modules/ocr/converters/html-markdown';
import { markdownTable } from '../../../src/modules/ocr/converters/markdown-table';
import { linesOf } from '../../../src/modules/ocr/converters/pdf';
import { slideParagraphs } from '../../../src/modules/ocr/converters/pptx';
import { decodeXmlText } from '../../../src/modules/ocr/converters/xml-text';

describe('converter helpers', () => {
  it('builds a Markdown table, escaping pipes and line breaks and dropping empty rows and columns', () => {
    const table = markdownTable([
      ['Name', 'Note', null],
      [null, null, null],
      ['a|b', 'two\nlines', null],
      [new Date(Date.UTC(2024, 1, 29)), true, undefined],
    ]);
    expect(table).toBe(
      ['| Name | Note |', '| --- | --- |', '| a\\|b | two<br>lines |', '| 2024-02-29 | TRUE |'].join('\n'),
    );
    expect(markdownTable([[null], []])).toBe('');
  });

  it('turns mammoth HTML into Markdown: headings, marks, nested lists, tables, links', () => {
    const html =
      '<h2>Plan &amp; goals</h2><p><strong>Bold</strong> and <em>it</em> <a href="https://x.test/">link</a>' +
      '<a id="bookmark"></a></p><ul><li>one<ul><li>one.a</li></ul></li><li>two</li></ul>' +
      '<ol><li><p>first</p></li></ol><table><tr><td><p>k</p></td><td><p>v1</p><p>v2</p></td></tr></table>' +
      '<p><img alt="chart" src="" /></p>';
    expect(htmlToMarkdown(html)).toBe(
      [
        '## Plan & goals',
        '**Bold** and *it* [link](https://x.test/)',
        '- one\n  - one.a\n- two',
        '1. first',
        '| k | v1<br>v2 |\n| --- | --- |',
        '[image: chart]',
      ].join('\n\n'),
    );
  });

  it('reads slide paragraphs, line breaks and entities; empty paragraphs are dropped', () => {
    const xml =
      '<p:txBody><a:p/><a:p><a:pPr lvl="1"/><a:r><a:t>Tom &amp; </a:t></a:r><a:r><a:t xml:space="preserve">Jerry</a:t></a:r>' +
      '<a:br/><a:r><a:t>&#x4E2D;&#25991;</a:t></a:r></a:p><a:p><a:r><a:t>  </a:t></a:r></a:p></p:txBody>';
    expect(slideParagraphs(xml)).toEqual(['Tom & Jerry\n中文']);
    expect(decodeXmlText('&lt;&unknown;&#0;')).toBe('<&unknown;&#0;');
  });

  it('groups PDF text items into lines by end-of-line marks and baseline jumps', () => {
    const item = (str: string, y: number, hasEOL = false) => ({
      str,
      hasEOL,
      transform: [1, 0, 0, 1, 0, y],
      height: 12,
    });
    expect(
      linesOf([
        item('Hello ', 700),
        item('world', 700),
        item('', 700, true),
        item('Next', 680),
        item('Far', 600),
      ]),
    ).toEqual(['Hello world', 'Next', 'Far']);
  });

  it('removes the spaces tesseract puts between Chinese characters, not between words', () => {
    expect(tidyRecognizedText('文档 解析 测试，中 文\nhello world 中文 ok')).toBe(
      '文档解析测试，中文\nhello world 中文 ok',
    );
  });
});
