import { fileURLToPath } from 'node:url';
import { BodyServer } from '../../src/body/body-server.ts';
import type { BodyMessage } from '../../src/body/messages.ts';
import type { BodyTransport } from '../../src/body/transports.ts';
import { createLogger } from '../../src/logging.ts';
import { ManualClock } from './manual-clock.ts';

/** The test skins: `default` covers every descriptor shape, `alt` has only a structured idle. */
export const FIXTURE_SKINS = fileURLToPath(new URL('../fixtures/skins', import.meta.url));

export interface Delivery {
  /** `null` for a broadcast, else the session it was sent to. */
  to: string | null;
  except?: string;
  message: BodyMessage;
}

/** A transport that records what it is asked to send, with a fixed list of sessions. */
export class RecordingTransport implements BodyTransport {
  readonly deliveries: Delivery[] = [];

  constructor(public sessions: string[] = []) {}

  broadcastAnimation(message: BodyMessage & { type: 'vrm_animation' }, exceptSession?: string) {
    this.deliveries.push(exceptSession === undefined ? { to: null, message } : { to: null, except: exceptSession, message });
  }
  broadcastAudio(message: BodyMessage & { type: 'vrm_audio' }) {
    this.deliveries.push({ to: null, message });
  }
  broadcastFace(message: BodyMessage & { type: 'vrm_face' }) {
    this.deliveries.push({ to: null, message });
  }
  broadcastModel(message: BodyMessage & { type: 'vrm_model' }) {
    this.deliveries.push({ to: null, message });
  }
  broadcastExpression(message: BodyMessage & { type: 'vrm_expression_set' | 'vrm_expression_clear' }) {
    this.deliveries.push({ to: null, message });
  }
  sendToSession(sessionId: string, message: BodyMessage) {
    if (!this.sessions.includes(sessionId)) return false;
    this.deliveries.push({ to: sessionId, message });
    return true;
  }
  preloadAsset(sessionId: string | null, message: BodyMessage & { type: 'preload_animation' }) {
    this.deliveries.push({ to: sessionId, message });
  }
  getConnectedSessions() {
    return this.sessions;
  }

  messages(type?: BodyMessage['type']): BodyMessage[] {
    return this.deliveries.map((delivery) => delivery.message).filter((message) => type === undefined || message.type === type);
  }

  /** The files of the animation commands so far, by file name. */
  animations(): string[] {
    return this.messages('vrm_animation').map((message) =>
      decodeURIComponent(
        String((message as { file: string }).file)
          .split('/')
          .pop() ?? '',
      ),
    );
  }

  clear(): void {
    this.deliveries.length = 0;
  }
}

export interface TestBody {
  body: BodyServer;
  clock: ManualClock;
  transport: RecordingTransport;
  /** Next values of the random source, consumed in order; 0 when exhausted. */
  randoms: number[];
}

/** A started body on the fixture skins, a manual clock, a scripted random source and a recording transport. */
export async function createTestBody(options: { activeSkin?: string; sessions?: string[]; skinsDir?: string } = {}): Promise<TestBody> {
  const clock = new ManualClock();
  const randoms: number[] = [];
  const { logger } = createLogger({ level: 'silent', pretty: false });
  const body = new BodyServer({
    skinsDir: options.skinsDir ?? FIXTURE_SKINS,
    activeSkin: options.activeSkin ?? 'default',
    logger,
    clock,
    random: () => randoms.shift() ?? 0,
  });
  const transport = new RecordingTransport(options.sessions ?? []);
  body.addTransport(transport);
  await body.start();
  return { body, clock, transport, randoms };
}
