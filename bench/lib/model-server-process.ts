import { startFakeOpenAi, type Scripted } from '../../test/helpers/openai-server.ts';

/** The local OpenAI-compatible test server in a process of its own, as a real model server would be. */
const answer = JSON.parse(process.argv[2] ?? '{}') as Scripted;
const server = await startFakeOpenAi({ fallback: answer });
process.send?.({ baseUrl: server.baseUrl });
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
