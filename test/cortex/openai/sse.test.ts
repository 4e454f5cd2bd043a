import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SseParser, sseData } from '../../../cortex/openai/sse.ts';

function parse(...chunks: string[]): string[] {
  const events: string[] = [];
  const parser = new SseParser((data) => events.push(data));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return events;
}

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const events: string[] = [];
  for await (const data of iterable) events.push(data);
  return events;
}

describe('the OpenAI event-stream reader', () => {
  it('yields each event’s data, whatever the chunk boundaries and line endings', () => {
    const stream = 'data: {"a":1}\n\n: a comment\nevent: ping\ndata:{"b":2}\r\n\r\ndata: [DONE]\n\n';
    const expected = ['{"a":1}', '{"b":2}', '[DONE]'];
    expect(parse(stream)).toEqual(expected);
    expect(parse(...stream.split(''))).toEqual(expected);
    expect(parse(stream.slice(0, 7), stream.slice(7, 23), stream.slice(23))).toEqual(expected);
  });

  it('joins multi-line data with newlines and keeps a last event that has no blank line after it', () => {
    expect(parse('data: first\ndata: second\n\ndata: tail')).toEqual(['first\nsecond', 'tail']);
    expect(parse('data: tail\r')).toEqual(['tail']);
    expect(parse('\n\n: only comments\n\n')).toEqual([]);
  });

  it('reads a body whose multi-byte characters are split between chunks', async () => {
    const bytes = Buffer.from('data: {"content":"héllo 👋"}\n\ndata: [DONE]\n\n');
    const body = Readable.from([bytes.subarray(0, 21), bytes.subarray(21, 30), bytes.subarray(30)], { objectMode: false });
    expect(await collect(sseData(body))).toEqual(['{"content":"héllo 👋"}', '[DONE]']);
  });

  it('hands out events as they arrive and stops listening when the reader returns', async () => {
    const body = new PassThrough();
    const events = sseData(body);
    const first = events.next();
    body.write('data: one\n\n');
    expect(await first).toEqual({ value: 'one', done: false });
    await events.return?.();
    body.write('data: two\n\n');
    expect(body.listenerCount('data')).toBe(0);
  });

  it('rejects the pending read when the body closes before it ends', async () => {
    const body = new PassThrough();
    const events = sseData(body);
    body.write('data: partial\n\n');
    expect(await events.next()).toEqual({ value: 'partial', done: false });
    const pending = events.next();
    body.destroy();
    await expect(pending).rejects.toThrow(/closed before it ended/);
  });

  it('pauses a body that runs far ahead of its reader and resumes it once read', async () => {
    const body = new PassThrough();
    const events = sseData(body);
    body.write('data: x\n\n'.repeat(100));
    await new Promise((resolve) => setImmediate(resolve));
    expect(body.isPaused()).toBe(true);
    body.end();
    expect(await collect(events)).toHaveLength(100);
  });
});
