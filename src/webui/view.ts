/**
 * The contract between the router and the pages it shows. It lives apart from the router so a page
 * depends on this contract only, and the router depends on the pages, never the other way round.
 */

/** Renders a page into `root` (which holds only the page title); may return what to undo on leaving. */
// biome-ignore lint/suspicious/noConfusingVoidType: a view that needs no clean-up simply returns nothing.
export type View = (root: HTMLElement) => (() => void) | void;

/** What each lazily loaded page module exports. */
export interface PageModule {
  view: View;
}
