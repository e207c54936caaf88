import { markdownTable } from './markdown-table.js';

/** An Excel workbook as Markdown: one `## <sheet>` section with a table per sheet that has values. */
export async function convertXlsx(bytes: Uint8Array): Promise<string> {
  const { default: readXlsxFile } = await import('read-excel-file/node');
  const sheets = await readXlsxFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return sheets
    .map(({ sheet, data }) => {
      const table = markdownTable(data);
      return table === '' ? '' : `## ${sheet}\n\n${table}`;
    })
    .filter((section) => section !== '')
    .join('\n\n');
}
