import { createRouter, createWebHistory } from 'vue-router';
import type { Role } from './api/types';

declare module 'vue-router' {
  interface RouteMeta {
    /** The page needs a session. */
    signedIn?: boolean;
    /** The page needs at least this role: others see "not allowed" at the same address. */
    role?: Role;
  }
}
import { useSession } from './auth/session';

export const router = createRouter({
  history: createWebHistory(),
  routes: [
    { path: '/', redirect: '/chat' },
    { path: '/sign-in', name: 'sign-in', component: () => import('./pages/sign-in/SignInPage.vue') },
    {
      path: '/chat/:threadId?',
      name: 'chat',
      component: () => import('./pages/chat/ChatPage.vue'),
      meta: { signedIn: true },
    },
    {
      path: '/agents',
      name: 'agents',
      component: () => import('./pages/agents/AgentsPage.vue'),
      meta: { signedIn: true },
    },
    {
      path: '/agents/:slug',
      name: 'agent',
      component: () => import('./pages/agents/AgentPage.vue'),
      meta: { signedIn: true },
    },
    {
      path: '/tools',
      name: 'tools',
      component: () => import('./pages/tools/ToolsPage.vue'),
      meta: { signedIn: true },
    },
    {
      path: '/api-keys',
      name: 'api-keys',
      component: () => import('./pages/api-keys/ApiKeysPage.vue'),
      meta: { signedIn: true },
    },
    {
      path: '/usage',
      name: 'usage',
      component: () => import('./pages/usage/UsagePage.vue'),
      meta: { signedIn: true },
    },
    {
      path: '/marks',
      name: 'marks',
      component: () => import('./pages/marks/MarksPage.vue'),
      meta: { signedIn: true },
    },
    {
      path: '/skills',
      meta: { signedIn: true },
      children: [
        { path: '', name: 'skills', component: () => import('./pages/skills/SkillsPage.vue') },
        { path: ':slug', name: 'skill', component: () => import('./pages/skills/SkillPage.vue') },
      ],
    },
    {
      path: '/knowledge/:kbId?',
      name: 'knowledge',
      component: () => import('./pages/knowledge/KnowledgeArea.vue'),
      meta: { signedIn: true },
    },
    {
      path: '/users',
      name: 'users',
      component: () => import('./pages/users/UsersPage.vue'),
      meta: { signedIn: true, role: 'admin' },
    },
    {
      path: '/mcp-servers',
      meta: { signedIn: true, role: 'admin' },
      children: [
        { path: '', name: 'mcp-servers', component: () => import('./pages/mcp/McpServersPage.vue') },
        { path: ':slug', name: 'mcp-server', component: () => import('./pages/mcp/McpServerPage.vue') },
      ],
    },
    {
      path: '/settings',
      name: 'settings',
      component: () => import('./pages/settings/SettingsPage.vue'),
      meta: { signedIn: true, role: 'admin' },
    },
    { path: '/:rest(.*)*', name: 'not-found', component: () => import('./pages/NotFoundPage.vue') },
  ],
});

/** A page that needs a session sends the visitor to sign in first, then back where they were going. */
router.beforeEach((to) => {
  if (to.meta.signedIn && !useSession().signedIn) {
    return { name: 'sign-in', query: { redirect: to.fullPath } };
  }
  return true;
});

/** Only a path of this console is a place to go back to after signing in (never another origin). */
export function safeRedirect(value: unknown): string {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : '/chat';
}
