/**
 * The old silence-detection speech-to-text module. It was replaced by Auris engines and the Live `vad`
 * engine; importing it only warns (once per process) and registers nothing, as the spec requires.
 */
process.emitWarning(
  'The silence-detection STT module is deprecated and registers nothing; use an Auris engine (ACTIVE_AURIS_ENGINE) or the Live vad engine (LIVE_CORTEX=vad).',
  {
    type: 'DeprecationWarning',
    code: 'ANIMA_SILENCE_STT',
  },
);

export {};
