import { createI18n } from 'vue-i18n';
import { en } from './en';
import { zhCN } from './zh-CN';

export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
const STORAGE_KEY = 'yuxi.locale';

/** The saved choice, else the browser's language (Chinese → zh-CN), else English. */
export function initialLocale(): Locale {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved && (LOCALES as readonly string[]).includes(saved)) return saved as Locale;
  return navigator.languages.some((lang) => lang.toLowerCase().startsWith('zh')) ? 'zh-CN' : 'en';
}

/** `d(date, 'short')`: a day; `d(date, 'long')`: a day and a time, in the reader's language. */
const dateFormats = {
  short: { dateStyle: 'medium' },
  long: { dateStyle: 'medium', timeStyle: 'short' },
} as const;

export const i18n = createI18n({
  legacy: false,
  datetimeFormats: { en: dateFormats, 'zh-CN': dateFormats },
  locale: initialLocale(),
  fallbackLocale: 'en',
  messages: { en, 'zh-CN': zhCN },
});

export function setLocale(locale: Locale): void {
  i18n.global.locale.value = locale;
  localStorage.setItem(STORAGE_KEY, locale);
}
