import { ref } from 'vue';
import { ApiError } from '../../api/api-error';
import { useErrorText } from '../../api/error-text';

export interface Failure {
  message: string;
  /** The service's code (`common.validation_failed`, …); null for a failure that is not the API's. */
  code: string | null;
}

/** A section's last failure as the service gave it (message and code), shown in a role="alert". */
export function useFailure() {
  const describe = useErrorText();
  const failure = ref<Failure | null>(null);
  function fail(caught: unknown): void {
    const message = describe(caught);
    failure.value =
      message === null ? null : { message, code: caught instanceof ApiError ? caught.code : null };
  }
  return { failure, fail };
}
