import { join, resolve } from 'node:path';
import type { BodyServer } from '../body/body-server.ts';
import type { Clock } from '../body/clock.ts';
import type { MessagingServices } from '../chain/assistant.ts';
import type { ConfigChange, ConfigStore } from '../config/store.ts';
import type { Logger } from '../logging.ts';
import { AurisPlugin } from './auris/auris-plugin.ts';
import type { AurisEngine } from './auris/contract.ts';
import { createPocketsphinxEngine, POCKETSPHINX_ENGINE } from './auris/pocketsphinx-engine.ts';
import { createVoskEngine, LOCAL_AURIS_ENGINE, VOSK_ALIAS } from './auris/vosk-engine.ts';
import { speakingBody } from './speaking-body.ts';
import { connectChain } from './chain-adapter.ts';
import { EngineRegistry } from './engine-registry.ts';
import { readExternalEndpoints, registerExternalEndpoints } from './external-endpoints.ts';
import type { LiveEngine } from './live/contract.ts';
import { LivePlugin } from './live/live-plugin.ts';
import { createVadEngine, VAD_LIVE_ENGINE } from './live/vad-engine.ts';
import type { VoxEngine } from './vox/contract.ts';
import { createHttpVoxEngine, HTTP_VOX_ENGINE } from './vox/http-engine.ts';
import { createLocalVoxEngine, LOCAL_VOX_ENGINE } from './vox/local-engine.ts';
import { SpeechOutlets } from './vox/outlets.ts';
import { SpeechFiles } from './vox/output-files.ts';
import { VoxPlugin } from './vox/vox-plugin.ts';

/** The three registries and their plugins, as Services holds them. */
export interface AudioServices {
  auris: AurisPlugin;
  vox: VoxPlugin;
  live: LivePlugin;
  engines: { auris: EngineRegistry<AurisEngine>; vox: EngineRegistry<VoxEngine>; live: EngineRegistry<LiveEngine> };
  files: SpeechFiles;
  stop(): Promise<void>;
}

export interface AudioOptions {
  config: ConfigStore;
  logger: Logger;
  cwd: string;
  /** The process's clock: the engines' deadlines (VOX_TIMEOUT_SECONDS, transcription) run on it. */
  clock: Clock;
  /** Absent in unit tests that exercise the pipeline alone. */
  body?: BodyServer;
  messaging?: MessagingServices;
}

const BUILT_IN = new Set([LOCAL_VOX_ENGINE, HTTP_VOX_ENGINE, LOCAL_AURIS_ENGINE, VOSK_ALIAS, POCKETSPHINX_ENGINE, VAD_LIVE_ENGINE]);

/** Builds Auris, Vox and Live with their built-in engines, and connects them to the body and the chain. */
export async function startAudio(options: AudioOptions): Promise<AudioServices> {
  const { config, cwd, clock } = options;
  const logger = options.logger.child({ component: 'audio' });
  const engines = {
    auris: new EngineRegistry<AurisEngine>({ kind: 'Auris', config, logger, clock, activeKey: 'ACTIVE_AURIS_ENGINE', settingsKey: 'AURIS_ENGINE_SETTINGS' }),
    vox: new EngineRegistry<VoxEngine>({ kind: 'Vox', config, logger, clock, activeKey: 'ACTIVE_VOX_ENGINE', settingsKey: 'VOX_ENGINE_SETTINGS' }),
    live: new EngineRegistry<LiveEngine>({ kind: 'Live', config, logger, clock, activeKey: 'LIVE_CORTEX' }),
  };
  const outputDir = () => resolve(cwd, config.get('VOX_OUTPUT_DIR'));
  const files = new SpeechFiles(outputDir, clock);
  const body = options.body ? speakingBody(options.body, logger) : undefined;
  const vox = new VoxPlugin({ engines: engines.vox, config, clock, files, outlets: new SpeechOutlets(), body, logger: logger.child({ subsystem: 'vox' }) });
  const auris = new AurisPlugin(engines.auris, clock, logger.child({ subsystem: 'auris' }));
  const live = new LivePlugin({ engines: engines.live, vox, outlets: vox.outlets, logger: logger.child({ subsystem: 'live' }) });

  engines.vox.register(LOCAL_VOX_ENGINE, createLocalVoxEngine, { local: true, streaming: false, voice_cloning: false, emotions: true });
  engines.vox.register(HTTP_VOX_ENGINE, createHttpVoxEngine, { local: false, streaming: false, voice_cloning: true, emotions: false });
  engines.auris.register(LOCAL_AURIS_ENGINE, createVoskEngine(), { file_based: true, local: true }, [VOSK_ALIAS]);
  engines.auris.register(POCKETSPHINX_ENGINE, createPocketsphinxEngine(), { file_based: true, local: true });
  engines.live.register(VAD_LIVE_ENGINE, createVadEngine(utteranceTranscriber(auris)), { input: true, output: false, local: true });

  let external: string[] = [];
  const syncEndpoints = () => {
    const { endpoints, invalid } = readExternalEndpoints(config);
    for (const problem of invalid) logger.warn({ problem }, 'ignoring an invalid external speech endpoint');
    const clashing = endpoints.filter((endpoint) => BUILT_IN.has(endpoint.name.toLowerCase()));
    for (const endpoint of clashing) logger.warn({ name: endpoint.name }, 'an external endpoint cannot take a built-in engine name');
    external = registerExternalEndpoints(
      endpoints.filter((endpoint) => !clashing.includes(endpoint)),
      engines,
      external,
    );
  };
  const onChange = (change: ConfigChange) => (change.key === 'VOX_ENGINE_SETTINGS' || change.key === 'AURIS_ENGINE_SETTINGS') && syncEndpoints();
  config.on('change', onChange);
  syncEndpoints();

  const disconnect = options.messaging
    ? await connectChain({
        messaging: options.messaging,
        config,
        logger,
        vox,
        auris,
        live,
        liveEngines: engines.live,
        audioRoots: [outputDir(), join(cwd, 'tmp')],
      })
    : undefined;
  return {
    auris,
    vox,
    live,
    engines,
    files,
    async stop() {
      config.off('change', onChange);
      disconnect?.();
      body?.stop();
      await live.stop();
      await Promise.all([engines.live.stop(), engines.vox.stop(), engines.auris.stop()]);
    },
  };
}

/** Live utterances reach text only through transcribe_audio (its in-memory form). */
function utteranceTranscriber(auris: AurisPlugin) {
  return async (pcm: Int16Array, sampleRate: number): Promise<string> => (auris.enabled ? auris.transcribePcm(pcm, sampleRate) : '');
}
