import { startFakeOpenAi, type Scripted } from '../../test/helpers/openai-server.ts';

/** The local OpenAI-compatible test server in a process of its own, as a real model server would be (on a given port when restarted). */
const answer = JSON.parse(process.argv[2] ?? '{}') as Scripted;
const port = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const server = await startFakeOpenAi({ fallback: answer, ...(port === undefined ? {} : { port }) });
process.send?.({ baseUrl: server.baseUrl });
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
