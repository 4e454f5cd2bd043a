/** The web UI: the avatar and chat on `#/`, the admin pages on their hash routes, one socket for all. */
import { Avatar } from './avatar/avatar.ts';
import { cachedAssets } from './avatar/asset-cache.ts';
import { soundButton } from './avatar/sound-button.ts';
import { Stage } from './avatar/stage.ts';
import { ChatPanel } from './chat/chat-panel.ts';
import { LatencyPanel } from './chat/latency-panel.ts';
import { VoiceSwitch } from './chat/voice-switch.ts';
import { h } from './dom.ts';
import { askForApiKey } from './key-dialog.ts';
import { apiJson, setKeyPrompt } from './net/api.ts';
import { LiveSocket } from './net/live-socket.ts';
import type { AnimationView, ClientMessage } from './protocol.ts';
import { navigation, startRouter } from './router.ts';
import { MicButton } from './voice/mic-button.ts';

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`index.html lacks #${id}`);
  return found as T;
}

setKeyPrompt(askForApiKey);
const stage = new Stage(element<HTMLCanvasElement>('avatar'));
const send = (message: ClientMessage) => socket.send(message);
const resync = () => {
  apiJson<AnimationView>('/api/animation_state')
    .then((snapshot) => avatar.sync(snapshot))
    .catch(() => undefined);
};
const avatar = new Avatar(stage, send, resync);
soundButton(element('stage'), avatar.speech);
const chat = new ChatPanel(element('chat'), send);
const voice = new VoiceSwitch(send, (speak) => avatar.speechQueue.setEnabled(speak));
const mic = new MicButton(
  () => chat.interfacePath,
  () => chat.typingText(),
);
const latency = new LatencyPanel();
chat.addToForm(mic.button, mic.lines);
chat.addBelow(h('div', { class: 'chat-tools' }, voice.element, latency.element));
const status = element('connection');
const socket = new LiveSocket({
  hasAssets: cachedAssets,
  onMessage: (message) => void (avatar.handle(message) || chat.handle(message) || latency.handle(message)),
  onReconnected: resync,
  onStatus: (connected) => {
    status.dataset.state = connected ? 'online' : 'offline';
    status.title = connected ? 'Connected' : 'Reconnecting…';
    // Called right after each hello: the server learns this window's voice switch.
    if (connected) voice.announce();
  },
});

avatar.earlyStart();
socket.start();
stage.start();
element('header').append(navigation());
startRouter(element('stage'), element('admin'), (visible) => {
  stage.visible = visible;
  if (visible) chat.refreshWelcome();
});
