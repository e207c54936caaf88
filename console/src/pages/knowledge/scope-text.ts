import { useI18n } from 'vue-i18n';
import type { ShareScope } from '../../api/types';
import { summarizeScope, type KnownNames, type ScopeName } from './share-config';

/** A scope in words, for the list and a base's header ("everyone", "departments Sales", "ann, 2 more"). */
export function useScopeText(): (scope: ShareScope | null, which: ScopeName, known: KnownNames) => string {
  const { t } = useI18n();
  return (scope, which, known) => {
    const summary = summarizeScope(scope, known);
    switch (summary.kind) {
      case 'none':
        return which === 'read' ? t('knowledge.scope.ownerAndManagers') : t('knowledge.scope.ownerOnly');
      case 'global':
        return t('knowledge.scope.everyone');
      case 'departments':
        return t('knowledge.scope.departments', { names: summary.names.join(', ') });
      case 'users': {
        const parts = [...summary.names];
        if (summary.others > 0) parts.push(t('knowledge.scope.more', { count: summary.others }));
        return parts.join(', ');
      }
    }
  };
}
