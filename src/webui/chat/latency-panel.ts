/** A collapsible panel under the chat: the last turn's stages (`turn_stages`, seconds) in milliseconds. */
import { h } from '../dom.ts';
import type { ServerMessage } from '../protocol.ts';

type TurnStages = Extract<ServerMessage, { type: 'turn_stages' }>;

const LABELS: Record<keyof TurnStages['stages'], string> = {
  stt: 'Speech to text',
  llm_first_token: 'Model, first token',
  llm_total: 'Model, whole reply',
  tts_first_audio: 'First audio',
  voice_loop: 'End of speech to first audio',
  chain: 'Whole turn',
};

export class LatencyPanel {
  readonly element: HTMLDetailsElement;
  private readonly table: HTMLTableSectionElement;
  private readonly empty: HTMLParagraphElement;

  constructor() {
    this.table = h('tbody');
    this.empty = h('p', { class: 'latency-empty' }, 'No turn yet.');
    this.element = h(
      'details',
      { class: 'latency' },
      h('summary', { class: 'latency-title' }, 'Latency of the last turn'),
      this.empty,
      h('table', { class: 'latency-table' }, h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Stage'), h('th', { scope: 'col' }, 'ms'))), this.table),
    );
  }

  /** True when the message was for the panel. */
  handle(message: ServerMessage): boolean {
    if (message.type !== 'turn_stages') return false;
    const rows = Object.entries(LABELS).flatMap(([key, label]) => {
      const seconds = message.stages[key as keyof TurnStages['stages']];
      return typeof seconds === 'number'
        ? [h('tr', { 'data-stage': key }, h('th', { scope: 'row' }, label), h('td', {}, String(Math.round(seconds * 1000))))]
        : [];
    });
    this.table.replaceChildren(...rows);
    this.empty.hidden = rows.length > 0;
    return true;
  }
}
