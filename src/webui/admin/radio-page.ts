/**
 * Radio: the radio host's status, what the station plays, and its activity (tracks, glitches, banter made,
 * breaks on air, errors), as `GET /api/radio/data` gives them; followed by polling, like the Operator page
 * (the radio host is a component, and components have no way onto the page's socket).
 */
import { errorText, h } from '../dom.ts';
import { ApiError, apiFetch, apiJson, failure } from '../net/api.ts';
import type { View } from '../view.ts';
import { actionButton } from './ui.ts';
import { formatDate } from './units.ts';

/** How often the page asks the server; the station itself is polled every RADIO_HOST_POLL_INTERVAL_S. */
const POLL_MS = 2000;

interface Song {
  title: string;
  artist: string;
  duration_s: number;
  elapsed_s?: number;
}

interface RadioData {
  status: { enabled: boolean; state: string; connected_station: string | null; last_error: string | null };
  station: { name: string | null; now_playing: Song | null; next: Song | null };
  activity: Array<{ id: number; time: string; kind: string; message: string; audio_id: number | null }>;
}

const STATE_LABELS: Readonly<Record<string, string>> = {
  disabled: 'Off (RADIO_HOST_ENABLED is false)',
  unconfigured: 'Waiting for a station (STATION_BASE_URL, STATION_ID)',
  monitoring: 'Following the station',
  on_air: 'On air',
};

const KIND_LABELS: Readonly<Record<string, string>> = {
  track: 'track',
  glitch: 'glitch',
  banter_ready: 'banter ready',
  injected: 'on air',
  skipped: 'skipped',
  error: 'error',
};

const clockTime = (seconds: number) => {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
};

const songText = (song: Song) => (song.artist ? `${song.title} — ${song.artist}` : song.title);

function statusCard({ status, station }: RadioData): HTMLElement {
  const row = (label: string, value: Node | string) => [h('dt', {}, label), h('dd', {}, value)];
  return h(
    'section',
    { class: 'card', 'aria-label': 'Radio status' },
    h('h2', {}, 'Status'),
    h(
      'dl',
      { class: 'radio-status' },
      ...row('Radio host', h('span', { class: `badge ${status.enabled ? 'loaded' : ''}` }, status.enabled ? 'enabled' : 'disabled')),
      ...row('State', STATE_LABELS[status.state] ?? status.state),
      ...row('Station', status.connected_station ?? station.name ?? 'not connected'),
    ),
    status.last_error && h('p', { class: 'error', role: 'alert' }, status.last_error),
    !status.enabled &&
      h('p', { class: 'muted' }, 'Switch it on and name the station on the ', h('a', { href: '#/config' }, 'Configuration page'), ' (section Radio).'),
  );
}

function playingCard({ station }: RadioData): HTMLElement {
  const playing = station.now_playing;
  return h(
    'section',
    { class: 'card', 'aria-label': 'Now playing' },
    h('h2', {}, 'Now playing'),
    playing
      ? h(
          'div',
          { class: 'radio-playing' },
          h('p', { class: 'radio-song' }, songText(playing)),
          h('progress', { max: String(Math.max(1, playing.duration_s)), value: String(playing.elapsed_s ?? 0), 'aria-label': 'Song progress' }),
          h('span', { class: 'muted' }, `${clockTime(playing.elapsed_s ?? 0)} / ${clockTime(playing.duration_s)}`),
        )
      : h('p', { class: 'muted' }, 'Nothing known yet.'),
    station.next && h('p', {}, 'Next: ', h('span', { class: 'radio-next' }, songText(station.next))),
  );
}

/** One audio element for the whole page: the list is redrawn on every poll, the player is not. */
function activityCard(data: RadioData, listen: (audioId: number) => Promise<void>): HTMLElement {
  return h(
    'section',
    { class: 'card', 'aria-label': 'Radio activity' },
    h('h2', {}, 'Activity'),
    data.activity.length === 0
      ? h('p', { class: 'muted' }, 'No activity yet.')
      : h(
          'ol',
          { class: 'radio-activity' },
          ...data.activity.map((entry) =>
            h(
              'li',
              { 'data-kind': entry.kind, 'data-id': String(entry.id) },
              h('time', { datetime: entry.time }, formatDate(entry.time)),
              ' ',
              h('span', { class: `badge ${entry.kind === 'error' ? 'failed' : ''}` }, KIND_LABELS[entry.kind] ?? entry.kind),
              ' ',
              h('span', { class: 'radio-message' }, entry.message),
              entry.audio_id !== null && entry.kind === 'banter_ready' && actionButton('Listen', () => listen(entry.audio_id as number)),
            ),
          ),
        ),
  );
}

export const view: View = (root) => {
  const player = h('audio', { controls: true, class: 'radio-player', 'aria-label': 'Banter player', hidden: true });
  const content = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  root.append(content, player);
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let playing: string | undefined;

  // Fetched with the page's credentials (a plain src would carry no session token or key).
  const listen = async (audioId: number) => {
    const response = await apiFetch(`/api/radio/audio?id=${audioId}`);
    if (!response.ok) throw await failure(response);
    if (playing) URL.revokeObjectURL(playing);
    playing = URL.createObjectURL(await response.blob());
    player.src = playing;
    player.hidden = false;
    await player.play().catch(() => undefined);
  };

  const poll = async () => {
    try {
      const data = await apiJson<RadioData>('/api/radio/data');
      content.replaceChildren(statusCard(data), playingCard(data), activityCard(data, listen));
    } catch (error) {
      // Component routes exist from the start or never: without the plugin there is nothing to show.
      const message =
        error instanceof ApiError && error.status === 404
          ? 'The radio host is not installed (plugins/radio_host).'
          : `Could not load the radio: ${errorText(error)}`;
      content.replaceChildren(h('p', { class: 'error', role: 'alert' }, message));
    }
    if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
  };
  void poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
    if (playing) URL.revokeObjectURL(playing);
  };
};
