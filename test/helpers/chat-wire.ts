/** The web UI's /ws as a test sees it: both directions kept, a server frame held back, or one injected. */
import type { Page, WebSocketRoute } from 'playwright-core';

export type Frame = Record<string, unknown> & { type: string };

/**
 * The page's /ws through a route: every frame both ways is kept, `reorder` may hold a server frame back
 * until another passes, and `inject` sends the page a frame as if the server had.
 */
export interface ChatWire {
  fromServer: Frame[];
  fromPage: Frame[];
  inject(frame: Frame): void;
  /** Holds the first server frame matching `held` until one matching `before` has been passed on. */
  reorder(held: (frame: Frame) => boolean, before: (frame: Frame) => boolean): void;
  /** Server frames matching this are kept in `fromServer` but not passed to the page. */
  drop(dropped: (frame: Frame) => boolean): void;
}

/**
 * What the route itself logs when the server closed its socket while the page still sent (on a loaded
 * machine a hello can miss its deadline; the page then reconnects): the page's own socket never logs it.
 */
export const ROUTE_SEND_AFTER_CLOSE = 'WebSocket is already in CLOSING or CLOSED state.';

export async function tapChat(page: Page): Promise<ChatWire> {
  const fromServer: Frame[] = [];
  const fromPage: Frame[] = [];
  let route: WebSocketRoute | undefined;
  let dropped: (frame: Frame) => boolean = () => false;
  let rule: { held: (frame: Frame) => boolean; before: (frame: Frame) => boolean; waiting?: string } | undefined;
  await page.routeWebSocket(
    (url) => url.pathname === '/ws',
    (ws) => {
      route = ws;
      const server = ws.connectToServer();
      server.onClose((code, reason) => ws.close({ code, reason }));
      ws.onMessage((message) => {
        fromPage.push(JSON.parse(String(message)) as Frame);
        server.send(message);
      });
      server.onMessage((message) => {
        const frame = JSON.parse(String(message)) as Frame;
        fromServer.push(frame);
        if (dropped(frame)) return;
        if (rule && !rule.waiting && rule.held(frame)) {
          rule.waiting = String(message);
          return;
        }
        ws.send(message);
        if (rule?.waiting && rule.before(frame)) {
          ws.send(rule.waiting);
          rule = undefined;
        }
      });
    },
  );
  return {
    fromServer,
    fromPage,
    inject: (frame) => route?.send(JSON.stringify(frame)),
    reorder: (held, before) => {
      rule = { held, before };
    },
    drop: (predicate) => {
      dropped = predicate;
    },
  };
}

/** The first of `frames` that matches, once it has come. */
export async function frameIn(frames: Frame[], predicate: (frame: Frame) => boolean, what: string, timeoutMs = 20_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = frames.find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`${what} never came; got ${JSON.stringify(frames.map((frame) => frame.type))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
