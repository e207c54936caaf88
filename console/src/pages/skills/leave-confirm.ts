import { onBeforeUnmount, onMounted, ref } from 'vue';

/**
 * "Leave without saving?" as a promise: `ask()` opens the question (the page shows `asking` as a dialog)
 * and resolves with the answer given to `answer()`. A second question while one is open gets the same
 * answer, so two guards never stack two dialogs.
 */
export function leaveConfirm() {
  const asking = ref(false);
  let pending: Promise<boolean> | null = null;
  let settle: ((leave: boolean) => void) | null = null;

  function ask(): Promise<boolean> {
    if (pending) return pending;
    asking.value = true;
    pending = new Promise<boolean>((resolve) => (settle = resolve));
    return pending;
  }

  function answer(leave: boolean): void {
    asking.value = false;
    const resolve = settle;
    pending = null;
    settle = null;
    resolve?.(leave);
  }

  return { asking, ask, answer };
}

/** The browser's own "leave site?" question while `unsaved()` holds (closing the tab, a reload). */
export function useBeforeUnload(unsaved: () => boolean): void {
  const warn = (event: BeforeUnloadEvent) => {
    if (!unsaved()) return;
    event.preventDefault();
    // Older browsers need returnValue set to show the question.
    event.returnValue = '';
  };
  onMounted(() => window.addEventListener('beforeunload', warn));
  onBeforeUnmount(() => window.removeEventListener('beforeunload', warn));
}
