import type { VoxPlugin } from '../audio/vox/vox-plugin.ts';
import type { Clock } from '../body/clock.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Metrics } from '../system/metrics.ts';
import type { ComponentRegistry } from '../components/registry.ts';
import type { ChatArchives, HistoryClearedEvent, HistoryRestoredEvent } from '../history/chat-archives.ts';
import type { ChatHistory } from '../history/chat-history.ts';
import { WEBUI_INTERFACE } from '../history/web-session.ts';
import type { WebChat } from './web-chat.ts';

/** The host's web chat with the component that answers into it (interface/webui). */
export interface WebChatHost {
  components: ComponentRegistry;
  webChat: WebChat;
}

/** The web chat while its interface is loaded; chat is unavailable otherwise. */
export function webChatIfLoaded(host: WebChatHost): WebChat | undefined {
  return host.components.interfaceEntry(WEBUI_INTERFACE)?.status === 'loaded' ? host.webChat : undefined;
}

/** Why chat is unavailable, for the page (the interface failed, or is not installed). */
export function webChatUnavailable(registry: ComponentRegistry): string {
  const entry = registry.interfaceEntry(WEBUI_INTERFACE);
  const reason = entry ? `${entry.status}${entry.reason ? `: ${entry.reason}` : ''}` : 'not installed (interface/webui)';
  return `Chat is unavailable: the webui interface is not loaded (${reason}).`;
}

/**
 * Once per process: Vox's speech for `webui/...` reaches the conversation's windows as `tts_play`, and
 * archive restores and clears replace what those windows show, and every window learns when the history's
 * database stops or starts answering, while the webui interface is loaded. Plain answers are spoken
 * through Vox (WEBUI_SPEAK_REPLIES). Returns the disposer.
 */
export function connectWebChat(
  deps: WebChatHost & {
    vox: VoxPlugin;
    config: ConfigStore;
    clock: Clock;
    metrics: Pick<Metrics, 'observeStage'>;
    archives: ChatArchives;
    history: ChatHistory;
  },
): () => void {
  const chat = () => webChatIfLoaded(deps);
  const { vox, config, history, metrics } = deps;
  deps.webChat.useVoice({
    speaksReplies: () => vox.enabled && config.get('WEBUI_SPEAK_REPLIES'),
    defaultSwitch: () => config.get('WEBUI_SPEAK_REPLIES'),
    prepare: (request) => vox.prepare(request),
    schedule: () => vox.schedule(),
    clock: deps.clock,
    editOwn: (interfacePath, original, text) => history.editOwn(interfacePath, original, text),
    observeStage: (stage, seconds) => metrics.observeStage(stage, seconds),
  });
  const unregister = vox.outlets.register(WEBUI_INTERFACE, {
    audio: async (audio) => chat()?.speak(audio) ?? false,
    text: async (interfacePath, text) => chat()?.say(interfacePath, text) ?? false,
  });
  const restored = (event: HistoryRestoredEvent) => chat()?.replaceHistory(event.interface_path, event.messages, true);
  const cleared = (event: HistoryClearedEvent) => chat()?.replaceHistory(event.interface_path, [], false);
  deps.archives.on('history_restored', restored);
  deps.archives.on('history_cleared', cleared);
  const unwatch = deps.history.onDatabaseStatus((status) => chat()?.databaseStatus(status));
  return () => {
    deps.webChat.useVoice(undefined);
    unwatch();
    unregister();
    deps.archives.off('history_restored', restored);
    deps.archives.off('history_cleared', cleared);
  };
}
