import { onBeforeUnmount, onMounted, watch, type Ref, type WatchSource } from 'vue';

/**
 * Keeps every navigation link in sight: when the links with their labels are wider than the room the
 * header leaves them (more links for an admin, a longer language), the nav gets `compact` and shows
 * icons only (each label stays the link's accessible name and tooltip). Measured again when the nav
 * resizes (the window, the tools beside it) or `changes` (the links, the language) change.
 */
export function useFitNav(nav: Ref<HTMLElement | null>, changes: WatchSource[]): void {
  let observer: ResizeObserver | null = null;

  function fit(): void {
    const element = nav.value;
    if (!element) return;
    element.classList.remove('compact');
    element.classList.toggle('compact', element.scrollWidth > element.clientWidth);
  }

  onMounted(() => {
    fit();
    if (typeof ResizeObserver === 'undefined' || !nav.value) return;
    // Its own box: showing or hiding the labels never changes it (it takes the room left), so no loop.
    observer = new ResizeObserver(() => fit());
    observer.observe(nav.value);
  });
  onBeforeUnmount(() => observer?.disconnect());
  watch(changes, () => requestAnimationFrame(fit), { flush: 'post' });
}
