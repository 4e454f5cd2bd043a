import { randomUUID } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { MessagingServices } from '../chain/assistant.ts';
import type { SpeechHook } from '../chain/speech.ts';
import {
  definePlugin,
  defineInterface,
  messageActionOf,
  type Action,
  type ActionOrigin,
  type ComponentDefinition,
  type CortexDefinition,
  type VoicePort,
} from '../components/contract.ts';
import type { ConfigChange, ConfigStore } from '../config/store.ts';
import type { Logger } from '../logging.ts';
import type { AurisPlugin } from './auris/auris-plugin.ts';
import type { EngineRegistry } from './engine-registry.ts';
import type { LiveEngine } from './live/contract.ts';
import { LIVE_INTERFACE, livePath, type LivePlugin } from './live/live-plugin.ts';
import { encodeVoiceNote } from './voice-note.ts';
import type { SpeechOutlet } from './vox/outlets.ts';
import type { VoxPlugin } from './vox/vox-plugin.ts';

/**
 * The audio subsystem's only contact with the message chain and the components (src/chain,
 * src/components). It relies on exactly these:
 * - `messaging.speech.register(hook)`: the chain's tts_speak hook (`__merged_text` arrives as mergedText;
 *   on status `error` the chain itself sends the text through the message action and saves it);
 * - `messaging.chain.submit(message)`: live finals enter the chain like any message;
 * - `messaging.delivery`: audio and fallback text reach an interface through its own
 *   `send_media_<id>` or `message_<id>` action, validated like every other delivery;
 * - `messaging.components.loadAll([...], [])` after start: adds the built-in `live` interface (once
 *   LIVE_CORTEX is enabled) and the `auris` plugin with `stt_transcribe` (once ACTIVE_AURIS_ENGINE is);
 * - `messaging.components.active('cortex')`: cortex engines of kind `live` that implement the Live
 *   contract are offered as Live engines.
 */
export async function connectChain(options: {
  messaging: MessagingServices;
  config: ConfigStore;
  logger: Logger;
  vox: VoxPlugin;
  auris: AurisPlugin;
  live: LivePlugin;
  liveEngines: EngineRegistry<LiveEngine>;
  /** Folders stt_transcribe may read. */
  audioRoots: string[];
}): Promise<() => void> {
  const { messaging, config, vox, live } = options;
  const hook: SpeechHook = {
    async speak(request) {
      const result = await vox.speak({ ...request, textFallback: 'caller' });
      if (result.status === 'success') return { status: 'success' };
      // `error` makes the chain send (and record) the text; without the fallback nothing is sent.
      return { status: result.fallback_text ? 'error' : 'skipped' };
    },
  };
  let unregister: (() => void) | undefined;
  const followVox = () => {
    if (vox.enabled && !unregister) unregister = messaging.speech.register(hook);
    if (!vox.enabled && unregister) {
      unregister();
      unregister = undefined;
    }
  };
  // The built-in components appear once their subsystem is first enabled (like tts_speak, which the
  // model is offered only while Vox is on), so a deployment without speech lists none of them.
  const loaded = new Set<string>();
  const loadOnce = async (name: string, enabled: boolean, definition: () => ComponentDefinition) => {
    if (!enabled || loaded.has(name)) return;
    loaded.add(name);
    await messaging.components.loadAll([definition()], []);
  };
  const followComponents = () =>
    Promise.all([
      loadOnce(LIVE_INTERFACE, live.enabled, () => liveInterface(live)),
      loadOnce('auris', options.auris.enabled, () => sttPlugin(options.auris, options.audioRoots)),
    ]);
  const onChange = (change: ConfigChange) => {
    if (change.key === 'ACTIVE_VOX_ENGINE') followVox();
    if (change.key === 'LIVE_CORTEX' || change.key === 'ACTIVE_AURIS_ENGINE')
      void followComponents().catch((error: unknown) => options.logger.error({ err: error }, 'loading an audio component failed'));
  };
  config.on('change', onChange);
  followVox();

  vox.outlets.setFallback(componentOutlet(messaging, options.logger));
  const unregisterVoice = messaging.voice.register(voicePort(vox, options.auris));
  live.conversation = {
    submit: async (sessionId, text) => {
      await messaging.chain.submit({
        interfaceId: LIVE_INTERFACE,
        interfacePath: livePath(sessionId),
        text,
        senderId: `voice:${sessionId}`,
        senderName: 'voice',
        hints: { animation: 'talk' },
      });
    },
  };
  await followComponents();
  const liveCortex = registerLiveCortexEngines(messaging, options.liveEngines);
  return () => {
    config.off('change', onChange);
    unregister?.();
    unregisterVoice();
    for (const name of liveCortex) options.liveEngines.unregister(name);
    live.conversation = undefined;
    vox.outlets.setFallback(undefined);
  };
}

/** The components' `voice` service: Auris for voice messages in, Vox and a voice-note encoding for replies. */
function voicePort(vox: VoxPlugin, auris: AurisPlugin): VoicePort {
  return {
    get canListen() {
      return auris.enabled;
    },
    get canSpeak() {
      return vox.enabled;
    },
    transcribe: (path, mimeType) => auris.transcribeAudio(path, mimeType),
    speak: async (interfacePath, text) => {
      const result = await vox.speak({ text, interfacePath });
      return result.status === 'success' ? result.delivered === true : result.fallback_text === true;
    },
    voiceNote: (path) => encodeVoiceNote(path),
    synthesize: (text, options) => vox.synthesize({ text, engine: options?.engine }),
  };
}

/** Audio and text to a conversation through its interface's own actions, by the one delivery path. */
function componentOutlet(messaging: MessagingServices, logger: Logger): SpeechOutlet {
  const run = async (interfacePath: string, candidates: Action[]): Promise<boolean> => {
    const interfaceId = interfacePath.split('/')[0] ?? '';
    const origin: ActionOrigin = { interfaceId, interfacePath, messageId: `vox-${randomUUID()}`, senderId: 'self', metadata: {} };
    // The interface's richest action that takes this payload: its media action, else its message action.
    const action = candidates.find((candidate) => messaging.delivery.accepts(candidate));
    const result = action ? await messaging.delivery.deliver(origin, action) : undefined;
    if (result?.delivered) return true;
    logger.debug({ interface_path: interfacePath, reason: result?.reason }, 'no interface action can take this speech');
    return false;
  };
  return {
    audio: (audio) => {
      const interfaceId = audio.interfacePath.split('/')[0] ?? '';
      const fileUrl = pathToFileURL(audio.path).href;
      return run(audio.interfacePath, [
        { type: `send_media_${interfaceId}`, payload: { file_url: fileUrl, interface_path: audio.interfacePath } },
        { type: messageActionOf(interfaceId), payload: { text: audio.text, interface_path: audio.interfacePath, media: fileUrl } },
      ]);
    },
    text: (interfacePath, text) =>
      run(interfacePath, [{ type: messageActionOf(interfacePath.split('/')[0] ?? ''), payload: { text, interface_path: interfacePath } }]),
  };
}

const LiveMessageSchema = z.object({ text: z.string().min(1), interface_path: z.string().startsWith(`${LIVE_INTERFACE}/`) });

/** The built-in `live` interface: the chain's answers to a live voice session are spoken into it. */
function liveInterface(live: LivePlugin) {
  return defineInterface({
    name: LIVE_INTERFACE,
    interfaceId: LIVE_INTERFACE,
    description: 'Live voice sessions (WS /api/audio/stream): answers are spoken back on the socket.',
    create: () => ({
      actions: {
        [messageActionOf(LIVE_INTERFACE)]: {
          schema: LiveMessageSchema,
          brief: 'Answer the person talking in a live voice session (spoken aloud).',
          examples: [{ text: 'Sure!', interface_path: 'live/<session>' }],
        },
      },
      async handleAction(_type, payload) {
        const { text, interface_path: path } = LiveMessageSchema.parse(payload);
        await live.reply(path.slice(LIVE_INTERFACE.length + 1), text);
      },
    }),
  });
}

const SttPayloadSchema = z.object({ audio_path: z.string().min(1), mime_type: z.string().optional(), engine: z.string().optional() });

/**
 * The `stt_transcribe` action: the file (only inside the audio folders) goes through transcribe_audio and
 * the transcript enters the conversation that asked, as that sender's words, so the model can answer it.
 */
function sttPlugin(auris: AurisPlugin, roots: string[]) {
  return definePlugin({
    name: 'auris',
    description: 'Speech-to-text (Auris): the stt_transcribe action.',
    needs: ['chain'],
    create: ({ services: { chain } }) => ({
      actions: {
        stt_transcribe: {
          schema: SttPayloadSchema,
          brief: 'Transcribe an audio file (for example a voice message) into text.',
          examples: [{ audio_path: '/tmp/voice.ogg', mime_type: 'audio/ogg' }],
        },
      },
      async handleAction(_type, payload, origin) {
        const { audio_path: path, mime_type: mime, engine } = SttPayloadSchema.parse(payload);
        if (!(await isInside(path, roots))) throw new Error('audio_path is outside the audio folders');
        const text = await auris.transcribeAudio(path, mime, engine);
        if (text === '') return;
        await chain.submit({
          interfaceId: origin.interfaceId,
          interfacePath: origin.interfacePath,
          text,
          senderId: origin.senderId,
          metadata: { transcribed_from: path },
        });
      },
    }),
  });
}

async function isInside(path: string, roots: string[]): Promise<boolean> {
  const real = await realpath(resolve(path)).catch(() => undefined);
  if (!real) return false;
  for (const root of [...roots, tmpdir()]) {
    const realRoot = await realpath(root).catch(() => undefined);
    if (realRoot && real.startsWith(realRoot + sep)) return true;
  }
  return false;
}

/** A live-kind cortex engine whose instance implements the Live contract becomes a Live engine. */
function registerLiveCortexEngines(messaging: MessagingServices, engines: EngineRegistry<LiveEngine>): string[] {
  const names: string[] = [];
  for (const entry of messaging.components.active('cortex')) {
    const definition = entry.definition as CortexDefinition | undefined;
    const instance = entry.instance as Partial<LiveEngine> | undefined;
    if (definition?.engineKind !== 'live' || typeof instance?.openSession !== 'function' || engines.resolve(entry.name)) continue;
    engines.register(entry.name, () => instance as LiveEngine, {
      input: Boolean(instance.supportsInput),
      output: Boolean(instance.supportsOutput),
      local: false,
    });
    names.push(entry.name);
  }
  return names;
}
