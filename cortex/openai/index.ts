import { defineCortex } from '../../src/components/contract.ts';
import { streamChat } from './client.ts';

/**
 * The OpenAI chat-completions protocol with streaming: OpenAI itself and every local server that
 * speaks it (Ollama, llama.cpp, vLLM, LM Studio). Settings are read per request, so a saved change
 * applies to the next message.
 */
export default defineCortex({
  engineKind: 'chat',
  description: 'OpenAI-compatible chat completions (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL).',
  requiredConfig: ['OPENAI_BASE_URL', 'OPENAI_MODEL'],
  needs: ['clock'],
  create: ({ config, services: { clock } }) => ({
    generate: ({ messages, signal, onUsage, responseFormat }) =>
      streamChat(
        clock,
        {
          baseUrl: config.get('OPENAI_BASE_URL'),
          apiKey: config.get('OPENAI_API_KEY'),
          model: config.get('OPENAI_MODEL'),
          timeoutMs: config.get('OPENAI_TIMEOUT_S') * 1000,
          maxRetries: config.get('OPENAI_MAX_RETRIES'),
        },
        messages,
        signal,
        onUsage,
        responseFormat,
      ),
  }),
});
