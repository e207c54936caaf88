import type { Page } from 'playwright-core';

/** What a person does on the chat page, as a test says it. */
export class ChatPage {
  constructor(private readonly page: Page) {}

  async pickAgent(name: string): Promise<void> {
    await this.page.getByRole('combobox', { name: 'Agent' }).selectOption({ label: name });
  }

  async send(text: string): Promise<void> {
    const box = this.page.getByRole('textbox', { name: 'Message' });
    await box.fill(text);
    await box.press('Enter');
  }

  toolCard(callId: string) {
    return this.page.locator(`[data-tool-call-id="${callId}"]`).first();
  }

  /** Waits until the run shown is over (the Cancel run button is gone and no status is pending). */
  async waitForAnswer(text: string): Promise<void> {
    await this.page.getByText(text, { exact: false }).first().waitFor();
  }
}
