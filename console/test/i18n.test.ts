import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';

/** Every leaf of a message tree as `dotted.path` → value. */
function leaves(tree: object, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [leaf, text] of leaves(value as object, path)) found.set(leaf, text);
    } else found.set(path, value);
  }
  return found;
}

/** The `{name}` placeholders of a message, sorted. */
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
}

const catalogs = { en, 'zh-CN': zhCN };

describe('i18n messages', () => {
  it('gives zh-CN exactly the keys of en, at every depth', () => {
    const enKeys = [...leaves(en).keys()].sort();
    const zhKeys = [...leaves(zhCN).keys()].sort();
    expect(enKeys.length).toBeGreaterThan(50);
    expect(zhKeys.filter((key) => !enKeys.includes(key))).toEqual([]);
    expect(enKeys.filter((key) => !zhKeys.includes(key))).toEqual([]);
  });

  it('has the same nesting in both: no key is a group in one and a message in the other', () => {
    const shape = (tree: object): unknown =>
      Object.fromEntries(
        Object.entries(tree).map(([key, value]) => [
          key,
          value && typeof value === 'object' ? shape(value as object) : 'message',
        ]),
      );
    expect(shape(zhCN)).toEqual(shape(en));
  });

  it.each(Object.entries(catalogs))('has no empty or non-string message in %s', (_locale, catalog) => {
    const bad = [...leaves(catalog)]
      .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
      .map(([key]) => key);
    expect(bad).toEqual([]);
  });

  it('uses in zh-CN the same placeholders as in en', () => {
    const zh = leaves(zhCN);
    const differing = [...leaves(en)]
      .filter(([key, text]) => placeholders(String(text)).join() !== placeholders(String(zh.get(key))).join())
      .map(([key]) => key);
    expect(differing).toEqual([]);
  });

  it('translates zh-CN messages rather than copying the English ones', () => {
    const zh = leaves(zhCN);
    // Short technical labels may stay the same; whole sentences may not.
    const copied = [...leaves(en)]
      .filter(([key, text]) => String(text).includes(' ') && String(text).length > 12 && zh.get(key) === text)
      .map(([key]) => key);
    expect(copied).toEqual([]);
  });
});
