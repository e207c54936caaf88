import { createPinia } from 'pinia';
import { createApp, watch } from 'vue';
import App from './App.vue';
import { api } from './api/client';
import { endSession } from './auth/end-session';
import { i18n } from './i18n';
import { router } from './router';
import './styles/tokens.css';
import './styles/base.css';
import './styles/page.css';

const app = createApp(App);
app.use(createPinia());
app.use(i18n);
app.use(router);

// The token expired or was revoked: back to sign-in, then to the page the user was on.
api.onUnauthorized = () => {
  endSession();
  const here = router.currentRoute.value;
  if (here.name !== 'sign-in') {
    void router.push({ name: 'sign-in', query: { redirect: here.fullPath, expired: '1' } });
  }
};

// The page and the API calls follow the language chosen.
watch(
  i18n.global.locale,
  (locale) => {
    document.documentElement.lang = locale;
    api.language = locale;
  },
  { immediate: true },
);
app.mount('#app');
