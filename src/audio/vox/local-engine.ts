import { z } from 'zod';
import type { EngineFactory } from '../engine-registry.ts';
import { baseLanguage } from '../languages.ts';
import { lipsyncFromVisemes } from '../lipsync.ts';
import { alignPhonemes, type Clause, parseEspeakPhonemes } from '../phoneme-alignment.ts';
import { analyseFrames } from '../speech-frames.ts';
import { decodeWav, durationSeconds, firstChannel } from '../wav.ts';
import { parseVoiceList, type EspeakVoice } from './espeak.ts';
import { runEspeakOffThread } from './espeak-worker.ts';
import { UnknownSpeakerError, type Speaker, type VoxEngine, type VoxRequest } from './contract.ts';

export const LOCAL_VOX_ENGINE = 'local';

/** VOX_ENGINE_SETTINGS keys the local engine reads; anything else is for other engines. */
const LocalSettingsSchema = z.looseObject({
  /** Words per minute. */
  speed: z.number().int().min(80).max(450).optional(),
  /** 0..99. */
  pitch: z.number().int().min(0).max(99).optional(),
});

/** How an emotion colours espeak's prosody: relative speed and pitch changes. */
const EMOTION_PROSODY: Record<string, { speed: number; pitch: number }> = {
  happy: { speed: 1.08, pitch: 12 },
  excited: { speed: 1.15, pitch: 18 },
  sad: { speed: 0.85, pitch: -12 },
  tired: { speed: 0.85, pitch: -8 },
  angry: { speed: 1.1, pitch: -5 },
  calm: { speed: 0.92, pitch: -3 },
};

const SAMPLE_SENTENCES: Record<string, string> = {
  en: 'Hello, this is how I sound.',
  de: 'Hallo, so klinge ich.',
  fr: 'Bonjour, voici ma voix.',
  es: 'Hola, así suena mi voz.',
  it: 'Ciao, questa è la mia voce.',
  pt: 'Olá, esta é a minha voz.',
  nl: 'Hallo, zo klink ik.',
};

const DEFAULT_VOICE = 'en-us';

/** espeak-ng prints the phonemes it speaks (IPA, `_` between phonemes) in the same run as the audio. */
const PHONEME_ARGS = ['--ipa', '--sep=_'];
/** Alignment frames: fine enough for a phoneme (the shortest last about 30 ms). */
const FRAME_S = 0.01;

/**
 * The bundled local engine: espeak-ng in WebAssembly, offline, 134 voices. The voice is the per-call
 * voice, else one matching the detected language, else LOCAL_VOICE, else en-us. A voice may carry a
 * variant (`en-us+f3`); the variant is kept when the language hint picks another language.
 * Lip-sync: espeak-ng's phonemes of each utterance, aligned to the utterance's own audio (docs/decisions.md).
 */
export const createLocalVoxEngine: EngineFactory<VoxEngine> = ({ settings, config }) => {
  const options = LocalSettingsSchema.parse(settings);
  let voices: Promise<EspeakVoice[]> | undefined;
  /** The phonemes of each WAV this engine returned, until Vox asks for its lip-sync. */
  const phonemes = new WeakMap<Uint8Array, Clause[]>();
  const listVoices = () => (voices ??= runEspeakOffThread({ args: ['--voices'] }).then((result) => parseVoiceList(result.stdout)));

  async function voiceFor(request: Pick<VoxRequest, 'voice' | 'language'>): Promise<string> {
    if (request.voice) return request.voice;
    const configured = config.voiceOf(LOCAL_VOX_ENGINE) || DEFAULT_VOICE;
    if (!request.language || baseLanguage(configured) === request.language) return configured;
    const variant = configured.includes('+') ? configured.slice(configured.indexOf('+')) : '';
    const match = (await listVoices()).find((voice) => baseLanguage(voice.language) === request.language);
    return match ? `${match.language}${variant}` : configured;
  }

  async function synthesise(text: string, voice: string, emotion?: string): Promise<Uint8Array> {
    const prosody = EMOTION_PROSODY[emotion?.toLowerCase() ?? ''] ?? { speed: 1, pitch: 0 };
    const speed = Math.round((options.speed ?? 175) * prosody.speed);
    const pitch = Math.min(99, Math.max(0, (options.pitch ?? 50) + prosody.pitch));
    const result = await runEspeakOffThread({ args: ['-v', voice, '-s', String(speed), '-p', String(pitch), ...PHONEME_ARGS], text });
    if (!result.wav) throw new Error(result.stderr.join(' ') || 'espeak-ng produced no audio');
    phonemes.set(result.wav, parseEspeakPhonemes(result.stdout));
    return result.wav;
  }

  return {
    outputFormat: 'wav',
    sampleRate: 22050,
    async setup() {
      await listVoices();
    },
    async generate(text, emotion, request) {
      return synthesise(text, await voiceFor(request), emotion);
    },
    lipsync(audio) {
      const clauses = phonemes.get(audio);
      if (!clauses) return undefined;
      const pcm = decodeWav(audio);
      const frames = analyseFrames(firstChannel(pcm), pcm.sampleRate, FRAME_S);
      return lipsyncFromVisemes(alignPhonemes(clauses, frames), durationSeconds(pcm));
    },
    async speakers(): Promise<Speaker[]> {
      return (await listVoices()).map((voice) => ({ code: voice.language, name: voice.name, language: baseLanguage(voice.language) }));
    },
    async sample(speaker) {
      const known = (await listVoices()).some((voice) => voice.language === speaker.split('+')[0]);
      if (!known) throw new UnknownSpeakerError(speaker);
      return synthesise(SAMPLE_SENTENCES[baseLanguage(speaker)] ?? SAMPLE_SENTENCES.en ?? '', speaker);
    },
  };
};
