import { defineStore } from 'pinia';
import { ref, watchEffect } from 'vue';

const STORAGE_KEY = 'yuxi.theme';

/** Light or dark: the saved choice, else the system's. `:root.dark` switches every token. */
export const useTheme = defineStore('theme', () => {
  const saved = localStorage.getItem(STORAGE_KEY);
  const dark = ref(
    saved ? saved === 'dark' : window.matchMedia?.('(prefers-color-scheme: dark)').matches === true,
  );
  watchEffect(() => document.documentElement.classList.toggle('dark', dark.value));
  function setDark(value: boolean): void {
    dark.value = value;
    localStorage.setItem(STORAGE_KEY, value ? 'dark' : 'light');
  }
  return { dark, setDark };
});
