import { afterEach, expect, vi } from 'vitest';
import WebSocket from 'ws';
import type { SocketGate } from '../../src/realtime/socket-gate.ts';
import type { ManualClock } from './manual-clock.ts';

export interface OpenedSocket {
  socket: WebSocket;
  /** Every text message received so far, parsed when JSON. */
  messages: unknown[];
  /** The same messages as the text that arrived, byte for byte. */
  texts: string[];
  /** Resolves with the close code once the server closes the socket. */
  closed: Promise<number>;
  /** Resolves with the first message matching `predicate` (including ones already received). */
  next(predicate?: (message: unknown) => boolean, timeoutMs?: number): Promise<unknown>;
}

/** Opens a real WebSocket and records everything from the first frame on (listeners attached before open). */
export async function openSocket(url: string, headers: Record<string, string> = {}): Promise<OpenedSocket> {
  const socket = new WebSocket(url, { headers });
  const messages: unknown[] = [];
  const texts: string[] = [];
  const waiters: Array<{ predicate: (message: unknown) => boolean; resolve: (message: unknown) => void }> = [];
  socket.on('message', (data: WebSocket.RawData) => {
    const text = data.toString();
    texts.push(text);
    let message: unknown = text;
    try {
      message = JSON.parse(text);
    } catch {
      // Not JSON: keep the text.
    }
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    messages,
    texts,
    closed,
    next(predicate = () => true, timeoutMs = 5000) {
      const found = messages.find(predicate);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching message in time')), timeoutMs);
        waiters.push({
          predicate,
          resolve: (message) => {
            clearTimeout(timer);
            resolve(message);
          },
        });
      });
    },
  };
}

/**
 * Runs out the hello timeout on the process's manual clock once the gate holds `waiting` sockets: each
 * is then closed with 4401, after anything the server sent it before (a socket's frames keep their order).
 */
export async function expireHellos(gate: SocketGate, clock: ManualClock, timeoutMs: number, waiting = 1): Promise<void> {
  await vi.waitFor(() => expect(gate.waitingCount()).toBe(waiting), { timeout: 10_000 });
  clock.advance(timeoutMs);
}

/** The sockets a describe block's tests open (push them here), terminated after each test. */
export function useSockets(): OpenedSocket[] {
  const sockets: OpenedSocket[] = [];
  afterEach(() => {
    for (const { socket } of sockets.splice(0)) socket.terminate();
  });
  return sockets;
}
