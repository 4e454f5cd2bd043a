/**
 * Server-sent events as the OpenAI streaming API sends them: `data: <json>` lines separated by blank
 * lines, ending with `data: [DONE]`. Yields each event's data; comments and other fields are ignored.
 */
export async function* sseData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line === '') {
        if (data.length > 0) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(5).replace(/^ /, ''));
      }
    }
  }
  const rest = buffer.replace(/\r$/, '');
  if (rest.startsWith('data:')) data.push(rest.slice(5).replace(/^ /, ''));
  if (data.length > 0) yield data.join('\n');
}
