import { randomUUID } from 'node:crypto';
import type { ChatTurn, CortexRequest } from '../../src/components/contract.ts';

/** A prompt as the operator sees it (`GET /api/cortex/manual/pending`). */
export interface PendingPrompt {
  id: string;
  /** Where it was asked: `webui/<session>`, `compat/<conversation>`, `telegram_bot/<chat>`... */
  interface_path: string;
  /** Who asked; `name` is empty when the interface knows none (an Ollama client). */
  sender: { id: string; name: string };
  /** The message to answer, as its sender wrote it. */
  text: string;
  /** The whole prompt a model would get: the system prompt, the conversation, the message. */
  messages: ChatTurn[];
  created_at: string;
}

interface Waiter {
  prompt: PendingPrompt;
  resolve(text: string): void;
  reject(error: Error): void;
}

/** Prompts waiting for the operator's answer, oldest first. */
export class PendingPrompts {
  private readonly waiting = new Map<string, Waiter>();

  list(): PendingPrompt[] {
    return [...this.waiting.values()].map((waiter) => waiter.prompt);
  }

  /** Resolves with the operator's answer; rejects when the request's signal aborts (the chain's deadline, the asker gone). */
  ask({ interfacePath, messages, message, signal }: Pick<CortexRequest, 'interfacePath' | 'messages' | 'message' | 'signal'>): Promise<string> {
    const prompt: PendingPrompt = {
      id: randomUUID(),
      interface_path: interfacePath,
      sender: { id: message.senderId, name: message.senderName },
      text: message.text,
      messages,
      created_at: new Date().toISOString(),
    };
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(prompt.id);
        reject(signal.reason instanceof Error ? signal.reason : new Error('the prompt was abandoned'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(prompt.id, {
        prompt,
        resolve: (text) => {
          signal.removeEventListener('abort', onAbort);
          resolve(text);
        },
        reject,
      });
    });
  }

  /** False when no prompt has that id (answered already, or abandoned). */
  answer(id: string, text: string): boolean {
    const waiter = this.waiting.get(id);
    if (!waiter) return false;
    this.waiting.delete(id);
    waiter.resolve(text);
    return true;
  }

  rejectAll(reason: Error): void {
    for (const waiter of this.waiting.values()) waiter.reject(reason);
    this.waiting.clear();
  }
}
