import { z } from 'zod';
import type { SpeechOutlets } from '../audio/vox/outlets.ts';
import { messageActionOf, type ComponentInstance, type InterfaceDefinition } from '../components/contract.ts';
import type { ComponentRegistry } from '../components/registry.ts';
import type { ChatArchives, HistoryClearedEvent, HistoryRestoredEvent } from '../history/chat-archives.ts';
import { isSessionId, WEBUI_INTERFACE } from '../history/web-session.ts';
import { WebChat } from './web-chat.ts';

export const WEBUI_MESSAGE_ACTION = messageActionOf(WEBUI_INTERFACE);

export const WebuiMessagePayloadSchema = z.object({
  text: z.string().min(1),
  interface_path: z.string().min(1),
  media: z.string().url().optional(),
});

/** What the webui interface component (interface/webui) exposes to the `/ws` sockets and to Vox. */
export interface WebChatInstance extends ComponentInstance {
  chat: WebChat;
}

const isWebChatInstance = (instance: ComponentInstance | undefined): instance is WebChatInstance =>
  instance !== undefined && 'chat' in instance && instance.chat instanceof WebChat;

const webuiEntry = (registry: ComponentRegistry) =>
  registry.list('interface').find((candidate) => (candidate.definition as InterfaceDefinition | undefined)?.interfaceId === WEBUI_INTERFACE);

export function webChatIfLoaded(registry: ComponentRegistry): WebChat | undefined {
  const entry = webuiEntry(registry);
  return entry?.status === 'loaded' && isWebChatInstance(entry.instance) ? entry.instance.chat : undefined;
}

/** Why chat is unavailable, for the page (the interface failed, or is not installed). */
export function webChatUnavailable(registry: ComponentRegistry): string {
  const entry = webuiEntry(registry);
  const reason = entry ? `${entry.status}${entry.reason ? `: ${entry.reason}` : ''}` : 'not installed (interface/webui)';
  return `Chat is unavailable: the webui interface is not loaded (${reason}).`;
}

/** `webui/<session_id>` and nothing else: the web UI has no threads. */
export function isWebuiPath(path: string): boolean {
  const [head, session, ...rest] = path.split('/');
  return head === WEBUI_INTERFACE && session !== undefined && isSessionId(session) && rest.length === 0;
}

/** The message shown for a `message_webui` payload: a media URL goes under the text as a link. */
export const shownText = (payload: z.infer<typeof WebuiMessagePayloadSchema>) => (payload.media ? `${payload.text}\n${payload.media}` : payload.text);

/**
 * Once per process: Vox's speech for `webui/...` reaches the conversation's windows as `tts_play`, and
 * archive restores and clears replace what those windows show. The web chat is looked up at each event,
 * so a component loaded later (or failed) is followed. Returns the disposer.
 */
export function connectWebChat(deps: { components: ComponentRegistry; outlets: SpeechOutlets; archives: ChatArchives }): () => void {
  const chat = () => webChatIfLoaded(deps.components);
  const unregister = deps.outlets.register(WEBUI_INTERFACE, {
    audio: async (audio) => chat()?.speak(audio) ?? false,
    text: async (interfacePath, text) => chat()?.say(interfacePath, text) ?? false,
  });
  const restored = (event: HistoryRestoredEvent) => chat()?.replaceHistory(event.interface_path, event.messages, true);
  const cleared = (event: HistoryClearedEvent) => chat()?.replaceHistory(event.interface_path, [], false);
  deps.archives.on('history_restored', restored);
  deps.archives.on('history_cleared', cleared);
  return () => {
    unregister();
    deps.archives.off('history_restored', restored);
    deps.archives.off('history_cleared', cleared);
  };
}
