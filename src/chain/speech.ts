import type { SynthesizedSpeech, VoiceNote, VoicePort } from '../components/contract.ts';

/** What the audio subsystem (Vox) answers to one tts_speak. */
export interface SpeechResult {
  status: 'success' | 'skipped' | 'error';
}

export interface SpeechRequest {
  text: string;
  emotion: string | undefined;
  interfacePath: string;
  interfaceId: string;
  /** The message text merged into this speech: the audio's caption, and the text sent if speech fails. */
  mergedText: string | undefined;
}

/** VoxPlugin.speak as the chain sees it; registered by the audio subsystem when it starts. */
export interface SpeechHook {
  speak(request: SpeechRequest): Promise<SpeechResult>;
}

/** The one slot the audio subsystem plugs into; without a hook, tts_speak falls back to text. */
export class SpeechSlot {
  private hook: SpeechHook | undefined;

  /** Returns the function that unregisters it. */
  register(hook: SpeechHook): () => void {
    this.hook = hook;
    return () => {
      if (this.hook === hook) this.hook = undefined;
    };
  }

  get current(): SpeechHook | undefined {
    return this.hook;
  }
}

/**
 * The voice service components receive as `voice`: components start before the audio subsystem, which
 * plugs its implementation in here; until then (or without audio) it can neither listen nor speak.
 */
export class VoiceSlot implements VoicePort {
  private implementation: VoicePort | undefined;

  /** Returns the function that unregisters it. */
  register(implementation: VoicePort): () => void {
    this.implementation = implementation;
    return () => {
      if (this.implementation === implementation) this.implementation = undefined;
    };
  }

  get canListen(): boolean {
    return this.implementation?.canListen ?? false;
  }

  get canSpeak(): boolean {
    return this.implementation?.canSpeak ?? false;
  }

  transcribe(path: string, mimeType?: string): Promise<string> {
    return this.required().transcribe(path, mimeType);
  }

  async speak(interfacePath: string, text: string): Promise<boolean> {
    return (await this.implementation?.speak(interfacePath, text)) ?? false;
  }

  voiceNote(path: string): Promise<VoiceNote> {
    return this.required().voiceNote(path);
  }

  synthesize(text: string, options?: { engine?: string }): Promise<SynthesizedSpeech> {
    return this.required().synthesize(text, options);
  }

  private required(): VoicePort {
    if (!this.implementation) throw new Error('Speech is not available in this process');
    return this.implementation;
  }
}
