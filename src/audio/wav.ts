/** 16-bit mono-or-more PCM as the audio pipeline handles it. */
export interface Pcm16 {
  sampleRate: number;
  channels: number;
  /** Interleaved samples. */
  samples: Int16Array;
}

export class InvalidWavError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidWavError';
  }
}

const HEADER_BYTES = 44;

/** Wraps raw little-endian 16-bit PCM bytes in a canonical 44-byte WAV header. */
export function wrapPcm(pcm: Uint8Array, sampleRate: number, channels = 1): Buffer {
  const data = pcm.byteLength % 2 === 0 ? pcm : pcm.subarray(0, pcm.byteLength - 1);
  const header = Buffer.alloc(HEADER_BYTES);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.byteLength, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.byteLength, 40);
  return Buffer.concat([header, data]);
}

export function encodeWav(audio: Pcm16): Buffer {
  const bytes = new Uint8Array(audio.samples.buffer, audio.samples.byteOffset, audio.samples.byteLength);
  return wrapPcm(bytes, audio.sampleRate, audio.channels);
}

export function isWav(bytes: Uint8Array): boolean {
  return (
    bytes.byteLength >= 12 && Buffer.from(bytes.subarray(0, 4)).toString('ascii') === 'RIFF' && Buffer.from(bytes.subarray(8, 12)).toString('ascii') === 'WAVE'
  );
}

/**
 * Reads a RIFF/WAVE file of integer PCM (8, 16, 24, 32 bit) or 32-bit float into 16-bit samples. Engines
 * and endpoints return all of these; anything else is an InvalidWavError rather than noise. A data size
 * larger than the file (streaming writers put 0xFFFFFFFF there) is read up to the end of the file.
 */
export function decodeWav(bytes: Uint8Array): Pcm16 {
  if (!isWav(bytes)) throw new InvalidWavError('not a RIFF/WAVE file');
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  let format: { code: number; channels: number; sampleRate: number; bits: number } | undefined;
  while (offset + 8 <= view.byteLength) {
    const id = view.toString('ascii', offset, offset + 4);
    const size = view.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > view.byteLength) throw new InvalidWavError('truncated fmt chunk');
      let code = view.readUInt16LE(body);
      // WAVE_FORMAT_EXTENSIBLE keeps the real format in the first two bytes of its sub-format GUID.
      if (code === 0xfffe && size >= 26) code = view.readUInt16LE(body + 24);
      format = { code, channels: view.readUInt16LE(body + 2), sampleRate: view.readUInt32LE(body + 4), bits: view.readUInt16LE(body + 14) };
    } else if (id === 'data') {
      if (!format) throw new InvalidWavError('data chunk before fmt chunk');
      const end = Math.min(view.byteLength, body + size);
      return { sampleRate: format.sampleRate, channels: format.channels, samples: toInt16(view.subarray(body, end), format.code, format.bits) };
    }
    offset = body + size + (size % 2);
  }
  throw new InvalidWavError('no data chunk');
}

function toInt16(data: Buffer, code: number, bits: number): Int16Array {
  const width = bits / 8;
  const count = Math.floor(data.byteLength / width);
  const out = new Int16Array(count);
  const clamp = (value: number) => Math.max(-32768, Math.min(32767, Math.round(value)));
  if (code === 3 && bits === 32) {
    for (let i = 0; i < count; i += 1) out[i] = clamp(data.readFloatLE(i * 4) * 32767);
    return out;
  }
  if (code !== 1 || ![8, 16, 24, 32].includes(bits)) throw new InvalidWavError(`unsupported WAV encoding (format ${code}, ${bits} bit)`);
  for (let i = 0; i < count; i += 1) {
    const at = i * width;
    if (bits === 8) out[i] = (data.readUInt8(at) - 128) << 8;
    else if (bits === 16) out[i] = data.readInt16LE(at);
    else if (bits === 24) out[i] = data.readIntLE(at, 3) >> 8;
    else out[i] = data.readInt32LE(at) >> 16;
  }
  return out;
}

/** The first channel only: analysis (lip-sync, VAD) needs one signal, not a mix. */
export function firstChannel(audio: Pcm16): Int16Array {
  if (audio.channels <= 1) return audio.samples;
  const out = new Int16Array(Math.floor(audio.samples.length / audio.channels));
  for (let i = 0; i < out.length; i += 1) out[i] = audio.samples[i * audio.channels] ?? 0;
  return out;
}

export function durationSeconds(audio: Pcm16): number {
  return audio.samples.length / audio.channels / audio.sampleRate;
}
