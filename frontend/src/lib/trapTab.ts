// Tab inside a modal dialog: the page under it is out of reach until the dialog closes.

const FOCUSABLE = "a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), " +
  "textarea:not(:disabled), [tabindex]:not([tabindex='-1'])";

/** On Tab (or Shift+Tab) past the last (or first) control of `box`, goes round to the other end. */
export function trapTab(event: KeyboardEvent, box: HTMLElement | null): void {
  if (event.key !== "Tab" || !box) return;
  const controls = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)];
  if (controls.length === 0) return;
  const first = controls[0];
  const last = controls[controls.length - 1];
  const active = document.activeElement;
  const outside = !box.contains(active);
  if (event.shiftKey && (active === first || outside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || outside)) {
    event.preventDefault();
    first.focus();
  }
}
