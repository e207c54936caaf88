import type { Page } from 'playwright-core';
import { signIn, type ConsoleApp } from '../support/browser/console-browser';
import { consoleSuite } from '../support/browser/console-suite';
import type { TestUser } from '../support/test-app';

describe('console: the tool catalog and API keys', () => {
  const suite = consoleSuite();
  let app: ConsoleApp, user: TestUser, page: Page;
  beforeEach(() => ({ app, user, page } = suite));

  it('lists the catalog with each unavailable tool and why, filtered by category and words', async () => {
    await signIn(page, user);
    await page.getByRole('link', { name: 'Tools' }).click();
    await page.getByRole('heading', { name: 'Tools', level: 1 }).waitFor();
    const catalog = (
      await app.ctx.http.get('/api/system/tools').set({ authorization: `Bearer ${user.token}` })
    ).body.items as { id: string; available: boolean; unavailable_reason: string | null; category: string }[];
    const rows = page.locator('[data-tool-id]');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(catalog.length);
    // No search vendor key here: web_search is unavailable, with the service's reason.
    const webSearch = catalog.find((tool) => tool.id === 'web_search')!;
    expect(webSearch.available).toBe(false);
    const row = page.locator('[data-tool-id="web_search"]');
    expect(await row.getByText('Unavailable', { exact: true }).count()).toBe(1);
    expect(await row.innerText()).toContain(webSearch.unavailable_reason!);
    expect(await page.locator('[data-tool-id="read_file"]').getByText('Unavailable').count()).toBe(0);

    await page.getByRole('combobox', { name: 'Category' }).selectOption(webSearch.category);
    expect(await rows.count()).toBe(catalog.filter((tool) => tool.category === webSearch.category).length);
    await page.getByRole('combobox', { name: 'Category' }).selectOption('');
    await page.getByRole('textbox', { name: 'Search tools' }).fill('read_file');
    expect(await rows.count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('[data-tool-id="read_file"]').count()).toBe(1);
    await page.getByRole('textbox', { name: 'Search tools' }).fill('no-such-tool-anywhere');
    await page.getByText('No tool matches.', { exact: false }).waitFor();
  });

  it('makes a key shown once, copies it, and revokes it', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, user);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByText('No API keys yet.', { exact: false }).waitFor();

    // A key without a name is refused in the page, before any request.
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Give the key a name.').waitFor();

    await page.getByRole('textbox', { name: 'Key name' }).fill('nightly report');
    await page.getByLabel('Expires on (optional)').fill('2030-01-31');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = await page.getByTestId('new-key').innerText();
    expect(shown).toMatch(/^yxk_[0-9a-f]{48}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(shown);
    const listed = await app.ctx.http.get('/api/api-keys').set({ authorization: `Bearer ${user.token}` });
    expect(listed.body.items[0]).toMatchObject({
      name: 'nightly report',
      expires_at: '2030-01-31T23:59:59.000Z',
    });
    const me = await app.ctx.http.get('/api/auth/me').set({ authorization: `Bearer ${shown}` });
    expect(me.body.username).toBe(user.username);

    // Shown once: after a reload only its prefix is listed.
    await page.reload();
    await page.getByText('nightly report').waitFor();
    expect(await page.getByText(shown).count()).toBe(0);
    expect(await page.getByText(shown.slice(0, 8)).count()).toBeGreaterThanOrEqual(1);

    await page.getByRole('button', { name: 'Revoke: nightly report' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Revoked', { exact: true }).waitFor();
    const refused = await app.ctx.http.get('/api/auth/me').set({ authorization: `Bearer ${shown}` });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('auth.api_key_revoked');
  });
});
