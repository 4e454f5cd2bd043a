/**
 * The microphone button in the chat form. A click starts hands-free listening (the server's voice
 * activity detection decides where each turn ends) and a second click stops it; holding the button, or
 * Space while no text field has the focus, is push-to-talk: releasing ends the capture. While the person
 * speaks, the partial transcript shows as a muted line; the final one comes back as their chat message.
 */
import { h } from '../dom.ts';
import { AudioSocket, type AudioSocketEvent } from './audio-socket.ts';
import { CAPTURE_RATE, type Capture, startCapture } from './mic-capture.ts';

type MicState = 'idle' | 'starting' | 'listening' | 'finishing' | 'denied' | 'unavailable';

/** A press held this long is push-to-talk; a shorter one is a click (hands-free). */
const HOLD_MS = 350;
/** Silence sent after the capture ends, so the server's VAD closes the utterance (its silence is at most 3 s). */
const TRAILING_SILENCE_S = 3.2;
const SILENCE_CHUNK = new ArrayBuffer(CAPTURE_RATE * 0.1 * 2);
/** How long a finished capture waits for its final transcript before the socket closes anyway. */
const FINAL_WAIT_MS = 8000;

export class MicButton {
  readonly button: HTMLButtonElement;
  /** The partial transcript while speaking, and the microphone's state in words. */
  readonly lines: HTMLDivElement;
  private readonly partial: HTMLParagraphElement;
  private readonly status: HTMLParagraphElement;
  private state: MicState = 'idle';
  private socket: AudioSocket | undefined;
  private capture: Capture | undefined;
  private closeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Push-to-talk released while the capture was still starting. */
  private stopWhenStarted = false;
  private pressedAt: number | undefined;
  /** The press began while listening: its release stops hands-free listening. */
  private pressStops = false;
  private spaceHeld = false;

  constructor(
    /** The conversation this window shows (`webui/<session>`), once the chat history came. */
    private readonly interfacePath: () => string | undefined,
    /** True while a text field has the focus: Space types there. */
    private readonly typingText: () => boolean,
  ) {
    this.button = h('button', { type: 'button', class: 'mic-button', 'aria-label': 'Microphone', 'aria-pressed': 'false' });
    this.partial = h('p', { class: 'mic-partial', 'aria-live': 'polite', hidden: true });
    this.status = h('p', { class: 'mic-status', role: 'status', hidden: true });
    this.lines = h('div', { class: 'mic-lines' }, this.partial, this.status);
    this.button.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      this.pressedAt = performance.now();
      this.pressStops = this.active();
      if (!this.pressStops) void this.start();
    });
    this.button.addEventListener('pointerup', () => this.release());
    // A keyboard activation (Enter on the focused button) toggles, like a click.
    this.button.addEventListener('click', (event) => {
      if (event.detail !== 0) return;
      if (this.active()) this.finish();
      else void this.start();
    });
    document.addEventListener('keydown', (event) => this.spaceDown(event));
    document.addEventListener('keyup', (event) => this.spaceUp(event));
    this.render();
  }

  private active(): boolean {
    return this.state === 'starting' || this.state === 'listening';
  }

  /** The end of a pointer press: a held press ends push-to-talk; a short one started hands-free (or ends it). */
  private release(): void {
    const pressedAt = this.pressedAt;
    this.pressedAt = undefined;
    if (pressedAt === undefined) return;
    if (this.pressStops || performance.now() - pressedAt >= HOLD_MS) this.finish();
  }

  private spaceDown(event: KeyboardEvent): void {
    if (event.code !== 'Space' || !this.spaceTalks(event)) return;
    event.preventDefault();
    if (event.repeat || this.spaceHeld) return;
    this.spaceHeld = true;
    if (!this.active()) void this.start();
  }

  private spaceUp(event: KeyboardEvent): void {
    if (event.code !== 'Space' || !this.spaceHeld) return;
    event.preventDefault();
    this.spaceHeld = false;
    this.finish();
  }

  /** Space talks only while the chat shows and no text field has the focus. */
  private spaceTalks(event: KeyboardEvent): boolean {
    const target = event.target as HTMLElement | null;
    const editable = target?.closest('input, textarea, select, [contenteditable]') !== null && target !== null;
    return !editable && !this.typingText() && this.button.offsetParent !== null;
  }

  private async start(): Promise<void> {
    const interfacePath = this.interfacePath();
    if (!interfacePath) return this.fail('unavailable', 'The chat is not connected yet.');
    this.closeNow();
    this.stopWhenStarted = false;
    this.setState('starting');
    try {
      const socket = await AudioSocket.open(
        { sample_rate: CAPTURE_RATE, interface_path: interfacePath },
        { onEvent: (event) => this.event(socket, event), onClose: () => this.closed(socket) },
      );
      this.socket = socket;
      this.capture = await startCapture((pcm) => socket.send(pcm));
    } catch (error) {
      this.closeNow();
      if (error instanceof DOMException && error.name === 'NotAllowedError')
        return this.fail('denied', 'The microphone is not allowed: allow it in the browser’s site settings, then try again.');
      return this.fail('unavailable', `The microphone is unavailable: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (this.state !== 'starting') return; // the socket refused meanwhile
    this.setState('listening');
    if (this.stopWhenStarted) this.finish();
  }

  /** Ends the capture; the socket stays until the final transcript of what was said comes back. */
  private finish(): void {
    if (this.state === 'starting') {
      this.stopWhenStarted = true;
      return;
    }
    if (this.state !== 'listening') return;
    this.capture?.stop();
    this.capture = undefined;
    const socket = this.socket;
    for (let sent = 0; socket && sent < TRAILING_SILENCE_S; sent += 0.1) socket.send(SILENCE_CHUNK.slice(0));
    this.setState('finishing');
    this.closeTimer = setTimeout(() => this.closeNow(), FINAL_WAIT_MS);
  }

  private event(socket: AudioSocket, event: AudioSocketEvent): void {
    if (socket !== this.socket) return;
    if (event.type === 'partial') this.showPartial(event.text);
    else if (event.type === 'final') {
      this.showPartial('');
      if (this.state === 'finishing') this.closeNow();
    } else if (event.type === 'error') {
      this.closeNow();
      this.fail('unavailable', `Voice input is unavailable: ${event.detail}`);
    }
  }

  private closed(socket: AudioSocket): void {
    if (socket !== this.socket) return;
    this.closeNow();
    if (this.state === 'starting' || this.state === 'listening') this.fail('unavailable', 'The voice service closed the connection.');
    else if (this.state === 'finishing') this.setState('idle');
  }

  private closeNow(): void {
    clearTimeout(this.closeTimer);
    this.capture?.stop();
    this.capture = undefined;
    const socket = this.socket;
    this.socket = undefined;
    socket?.close();
    this.showPartial('');
    if (this.state === 'finishing') this.setState('idle');
  }

  private fail(state: 'denied' | 'unavailable', message: string): void {
    this.setState(state);
    this.status.textContent = message;
  }

  private showPartial(text: string): void {
    this.partial.textContent = text;
    this.partial.hidden = text === '';
  }

  private setState(state: MicState): void {
    this.state = state;
    this.render();
  }

  private render(): void {
    const listening = this.active();
    this.button.dataset.state = this.state;
    this.button.setAttribute('aria-pressed', String(listening));
    this.button.title = listening ? 'Listening: click to stop (or release)' : 'Talk: click for hands-free, or hold (or hold Space) to talk';
    // Plain text: a phone or a server without an emoji font would show a box.
    this.button.replaceChildren(h('span', { 'aria-hidden': 'true' }, listening ? '● Stop' : 'Talk'));
    const words: Partial<Record<MicState, string>> = { starting: 'Starting the microphone…', listening: 'Listening…' };
    if (this.state === 'denied' || this.state === 'unavailable') {
      this.status.hidden = false;
      this.status.classList.add('error');
    } else {
      this.status.classList.remove('error');
      this.status.textContent = words[this.state] ?? '';
      this.status.hidden = !words[this.state];
    }
  }
}
