import { strToU8, zipSync } from 'fflate';
import type { Page } from 'playwright-core';

/** A zip of skill files by path (`folder/SKILL.md`, …), as a person would upload it. */
export function skillZip(files: Record<string, string>): Buffer {
  return Buffer.from(
    zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)]))),
  );
}

/** What a person does on the skills pages, as a test says it. */
export class SkillsPage {
  constructor(private readonly page: Page) {}

  /** Chooses the file in the install form and asks for a review. */
  async upload(name: string, bytes: Buffer): Promise<void> {
    await this.page.getByLabel('A .zip of skill folders, or one SKILL.md').setInputFiles({
      name,
      mimeType: name.endsWith('.zip') ? 'application/zip' : 'text/markdown',
      buffer: bytes,
    });
    await this.page.getByRole('button', { name: 'Upload for review' }).click();
  }

  row(source: 'builtin' | 'shared' | 'personal', slug: string) {
    return this.page.locator(`[data-skill="${source}:${slug}"]`);
  }

  /** The open file's text box. */
  editor(path: string) {
    return this.page.getByRole('textbox', { name: `Contents of ${path}`, exact: true });
  }

  async openFile(path: string): Promise<void> {
    await this.page.locator(`nav[aria-label="Files"] [data-path="${path}"]`).click();
  }
}
