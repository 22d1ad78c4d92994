/**
 * Keyboard access to wide tables: a `.table-wrap` or `.scroll-y` box that scrolls (a wide table
 * on a phone, a long one in a capped box) gets `tabindex="0"`, so it can be focused and scrolled
 * with the arrow keys (WCAG 2.1.1; axe's scrollable-region-focusable); one that fits loses it, so
 * the tab order has no empty stops. Checked after each change to the page and on resize.
 */
const SELECTOR = ".table-wrap, .scroll-y";

function update(root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>(SELECTOR)) {
    const scrolls = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
    if (scrolls && el.getAttribute("tabindex") !== "0") el.setAttribute("tabindex", "0");
    else if (!scrolls && el.hasAttribute("tabindex")) el.removeAttribute("tabindex");
  }
}

export function watchScrollRegions(root: HTMLElement): void {
  let queued = false;
  const schedule = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; update(root); });
  };
  new MutationObserver(schedule).observe(root, { childList: true, subtree: true });
  addEventListener("resize", schedule);
  schedule();
}
