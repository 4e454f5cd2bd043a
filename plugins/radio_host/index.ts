import { resolve } from 'node:path';
import { definePlugin } from '../../src/components/contract.ts';
import { RadioAudioFolder } from './audio-folder.ts';
import { BanterEncodings } from './banter-encodings.ts';
import { BanterPlanner } from './banter-planner.ts';
import type { ListenerMessage } from './banter-text.ts';
import { injectBanter, prepareBanterAudio } from './injection/index.ts';
import { RadioHost, type RadioSettings } from './radio-host.ts';
import { radioRoutes } from './radio-routes.ts';
import { fetchNowPlaying, fetchQueue } from './station-api.ts';
import { webdjUrl } from './webdj-url.ts';

/** Listener messages arrive through the integration ingress with this source (any type but `chat`). */
export const LISTENER_SOURCE = 'radio';

const RADIO_KEYS = [
  'RADIO_HOST_ENABLED',
  'STATION_BASE_URL',
  'STATION_API_KEY',
  'STATION_ID',
  'RADIO_HOST_LANGUAGE',
  'RADIO_HOST_POLL_INTERVAL_S',
  'RADIO_HOST_INTERMISSION',
  'RADIO_HOST_LISTENER_HISTORY',
  'RADIO_HOST_VOX_ENGINE',
  'RADIO_HOST_GAIN_DB',
  'RADIO_HOST_NEXT_SONG_ANNOUNCEMENT',
  'STATION_STREAMER_USERNAME',
  'STATION_STREAMER_PASSWORD',
  'STATION_WEBDJ_URL',
] as const;

/** A stored integration message as a line of the banter prompt; anything without text is skipped. */
function listenerMessage(message: { payload: Record<string, unknown>; metadata: Record<string, unknown> }): ListenerMessage | undefined {
  const text = message.payload.text;
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const name = [message.metadata.username, message.payload.name].find((value): value is string => typeof value === 'string' && value.trim() !== '');
  return { name: name ?? 'a listener', text: text.trim().slice(0, 300) };
}

/** The radio DJ: follows an AzuraCast station and speaks between its songs through the web broadcaster. */
export default definePlugin({
  description: 'Radio DJ: speaks between the songs of an AzuraCast station (RADIO_HOST_ENABLED).',
  needs: ['clock', 'activity', 'voice', 'completion', 'inbox'],
  create: ({ config, logger, paths, services, onStop }) => {
    const settings = (): RadioSettings => ({
      enabled: config.get('RADIO_HOST_ENABLED'),
      baseUrl: config.get('STATION_BASE_URL'),
      stationId: config.get('STATION_ID'),
      pollIntervalS: config.get('RADIO_HOST_POLL_INTERVAL_S'),
      intermission: config.get('RADIO_HOST_INTERMISSION'),
      announceNext: config.get('RADIO_HOST_NEXT_SONG_ANNOUNCEMENT'),
      gainDb: config.get('RADIO_HOST_GAIN_DB'),
      webdjUrl: webdjUrl(config.get('STATION_WEBDJ_URL'), config.get('STATION_BASE_URL'), config.get('STATION_ID')),
      username: config.get('STATION_STREAMER_USERNAME'),
      password: config.get('STATION_STREAMER_PASSWORD'),
    });
    const folder = new RadioAudioFolder(() => resolve(paths.cwd, config.get('VOX_OUTPUT_DIR'), 'radio'));
    let stationName = '';
    const encodings = new BanterEncodings({ encode: prepareBanterAudio, gainDb: () => config.get('RADIO_HOST_GAIN_DB'), logger });
    const planner = new BanterPlanner({
      language: () => config.get('RADIO_HOST_LANGUAGE'),
      stationName: () => stationName,
      canSpeak: () => services.voice.canSpeak,
      listeners: async () => {
        const count = config.get('RADIO_HOST_LISTENER_HISTORY');
        if (count === 0) return [];
        return (await services.inbox.recent(LISTENER_SOURCE, count)).flatMap((message) => listenerMessage(message) ?? []);
      },
      synthesize: (text) => {
        const engine = config.get('RADIO_HOST_VOX_ENGINE').trim();
        return services.voice.synthesize(text, engine ? { engine } : {});
      },
      complete: (messages, signal) => services.completion.complete({ messages, interfacePath: 'radio_host', signal }),
      record: (kind, message, data) => services.activity.record(`radio.${kind}`, message, data),
      spoken: (path) => encodings.prepare(path),
      audio: folder,
      now: () => services.clock.now(),
      random: Math.random,
      logger,
    });
    const host = new RadioHost({
      clock: services.clock,
      settings,
      fetchSnapshot: async (current) => {
        const snapshot = await fetchNowPlaying(current.baseUrl, current.stationId);
        stationName = snapshot.stationName;
        return snapshot;
      },
      fetchQueue: (current) => fetchQueue(current.baseUrl, current.stationId, config.get('STATION_API_KEY')),
      inject: (request) => injectBanter(request, services.clock),
      planner,
      encodings,
      activity: services.activity,
      logger,
    });
    return {
      routes: radioRoutes(host, services.activity, folder),
      start() {
        config.onChange(RADIO_KEYS, (change) => host.reconfigure(change.key));
        onStop(() => host.stop());
        host.restart();
      },
    };
  },
});
