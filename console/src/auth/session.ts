import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { api } from '../api/client';
import { routes } from '../api/routes';
import type { User } from '../api/types';

const STORAGE_KEY = 'yuxi.session';

interface Saved {
  token: string;
  user: User;
}

/**
 * Who is signed in. The access token lives in memory and in session storage (it survives a reload of this
 * tab and ends with it; never local storage, where every tab and every later visit would find it).
 */
export const useSession = defineStore('session', () => {
  const saved = readSaved();
  const token = ref<string | null>(saved?.token ?? null);
  const user = ref<User | null>(saved?.user ?? null);
  api.setToken(token.value);

  const signedIn = computed(() => token.value !== null);

  async function signIn(username: string, password: string): Promise<void> {
    const answer = await routes.signIn(username, password);
    token.value = answer.access_token;
    user.value = answer.user;
    api.setToken(answer.access_token);
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ token: answer.access_token, user: answer.user }));
  }

  function signOut(): void {
    token.value = null;
    user.value = null;
    api.setToken(null);
    sessionStorage.removeItem(STORAGE_KEY);
  }

  return { token, user, signedIn, signIn, signOut };
});

function readSaved(): Saved | null {
  try {
    const text = sessionStorage.getItem(STORAGE_KEY);
    const value = text ? (JSON.parse(text) as Saved) : null;
    return value && typeof value.token === 'string' && value.user ? value : null;
  } catch {
    return null;
  }
}
