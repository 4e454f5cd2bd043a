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
