/** A tiny element builder: enough for the admin pages without a framework. */
type Child = Node | string | null | undefined | false;
type Props = Record<string, unknown> & { class?: string; on?: Record<string, (event: Event) => void> };

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'on') {
      for (const [event, listener] of Object.entries(value as Record<string, (event: Event) => void>)) element.addEventListener(event, listener);
    } else if (key === 'class') {
      element.className = String(value);
    } else if (key in element && typeof value !== 'string') {
      (element as unknown as Record<string, unknown>)[key] = value;
    } else {
      element.setAttribute(key, value === true ? '' : String(value));
    }
  }
  element.append(...children.filter((child): child is Node | string => child !== null && child !== undefined && child !== false));
  return element;
}

export function clear(element: Element, ...children: Child[]): void {
  element.replaceChildren(...children.filter((child): child is Node | string => child !== null && child !== undefined && child !== false));
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
