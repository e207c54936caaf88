import { computed, ref } from 'vue';
import { routes } from '../../api/routes';
import type { Department, ManagedUser } from '../../api/types';
import { hasRole } from '../../auth/roles';
import { useSession } from '../../auth/session';
import type { KnownNames } from './share-config';

/**
 * The departments (anyone may list them) and, for an admin, the users: what the share form offers and
 * what names a scope's ids. A normal user cannot list users, so the ids they share with stay ids.
 */
export function useDirectory() {
  const session = useSession();
  const departments = ref<Department[]>([]);
  const users = ref<ManagedUser[] | null>(null);
  const isAdmin = computed(() => hasRole(session.user?.role, 'admin'));

  async function load(): Promise<void> {
    const [departmentPage, userPage] = await Promise.all([
      routes.departments(),
      isAdmin.value ? routes.users() : Promise.resolve(null),
    ]);
    departments.value = departmentPage.items;
    users.value = userPage?.items ?? null;
  }

  const known = computed<KnownNames>(() => {
    const names = new Map((users.value ?? []).map((user) => [user.id, user.username]));
    if (session.user) names.set(session.user.id, session.user.username);
    return {
      departments: new Map(departments.value.map((department) => [department.id, department.name])),
      users: names,
    };
  });

  return { departments, users, isAdmin, known, load };
}
