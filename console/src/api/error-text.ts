import { useI18n } from 'vue-i18n';
import { ApiError } from './api-error';

/**
 * What a page shows for a failed call: each invalid field with the service's words, the service's message
 * for any other refusal, or nothing for a 401 (the session has ended and sign-in takes over).
 */
export function useErrorText(): (caught: unknown) => string | null {
  const { t } = useI18n();
  return (caught) => {
    if (!(caught instanceof ApiError)) return t('errors.generic', { message: String(caught) });
    if (caught.status === 401) return null;
    if (caught.status === 0) return t('errors.network');
    if (caught.code === 'common.validation_failed') {
      const fields = Object.entries(caught.fieldMessages());
      if (fields.length)
        return fields.map(([field, messages]) => `${field}: ${messages.join(' ')}`).join(' ');
    }
    return caught.message;
  };
}
