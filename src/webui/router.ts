/** Hash routes: `#/` is the avatar and chat; the admin pages are loaded on first visit (their own chunks). */
import { clear, errorText, h } from './dom.ts';
import type { PageModule, View } from './view.ts';

const PAGES: Record<string, { title: string; load: () => Promise<PageModule> }> = {
  components: { title: 'Components', load: () => import('./admin/components-page.ts') },
  operator: { title: 'Operator', load: () => import('./admin/operator-page.ts') },
  config: { title: 'Configuration', load: () => import('./admin/config-page.ts') },
  memory: { title: 'Memory', load: () => import('./admin/memory-page.ts') },
  diary: { title: 'Diary', load: () => import('./admin/diary-page.ts') },
  archives: { title: 'Archives', load: () => import('./admin/archives-page.ts') },
  uploads: { title: 'Uploads', load: () => import('./admin/uploads-page.ts') },
  radio: { title: 'Radio', load: () => import('./admin/radio-page.ts') },
  logs: { title: 'Logs', load: () => import('./admin/logs-page.ts') },
  about: { title: 'About', load: () => import('./admin/about-page.ts') },
};

export function navigation(): HTMLElement {
  const links = [h('a', { href: '#/' }, 'Avatar'), ...Object.entries(PAGES).map(([path, page]) => h('a', { href: `#/${path}` }, page.title))];
  return h('nav', { class: 'site-nav', 'aria-label': 'Pages' }, ...links);
}

export function startRouter(stage: HTMLElement, admin: HTMLElement, onStageVisible: (visible: boolean) => void): void {
  let cleanup: ReturnType<View>;
  let route = 0;
  const show = async () => {
    const current = ++route;
    if (cleanup) cleanup();
    cleanup = undefined;
    const path = location.hash.replace(/^#\/?/, '').split('?')[0] ?? '';
    for (const link of document.querySelectorAll<HTMLAnchorElement>('.site-nav a')) {
      link.toggleAttribute('aria-current', link.getAttribute('href') === `#/${path}`);
    }
    const page = PAGES[path];
    stage.hidden = Boolean(page);
    admin.hidden = !page;
    onStageVisible(!page);
    if (!page) return;
    document.title = `${page.title} · Anima`;
    clear(admin, h('p', { class: 'muted' }, 'Loading…'));
    try {
      const { view } = await page.load();
      if (current !== route) return;
      clear(admin, h('h1', {}, page.title));
      cleanup = view(admin);
    } catch (error) {
      clear(admin, h('p', { class: 'error' }, `This page could not be loaded: ${errorText(error)}`));
    }
  };
  window.addEventListener('hashchange', () => void show());
  void show();
}
