import {
  BackgroundDeclinedError,
  type CompletedTurn,
  definePlugin,
  type Memory,
  type Person,
  type PromptTurn,
  withTimeout,
} from '../../src/components/contract.ts';
import { embed, type EmbeddingsSettings } from './embeddings.ts';
import { EPISODE_FORMAT, EpisodeSchema, episodePrompt, extractionPrompt, LEARNED_FORMAT, LearnedSchema, parseAnswer } from './extraction.ts';
import { recall } from './recall.ts';
import { type FinishedStretch, Stretches } from './stretches.ts';

/** How long the message's own vector may take; past it the recall goes on with full-text search alone. */
const QUERY_EMBEDDING_MS = 250;
/** Known memories shown to the extraction, so it can reuse a topic when something changed. */
const KNOWN_FOR_EXTRACTION = 40;

/**
 * Anima remembers (contract "Memory"): before each answer it recalls what it knows of the sender and of
 * the conversation; after it, the active Cortex engine picks what is worth keeping, and finished stretches
 * of conversation become episodes. A person who writes one of MEMORY_FORGET_COMMANDS is forgotten.
 */
export default definePlugin({
  description: 'Long-term memory: recalls what it knows of the sender before each answer and learns from each exchange.',
  needs: ['memory', 'completion', 'metrics', 'clock'],
  create: ({ config, logger, services: { memory, completion, metrics, clock } }) => {
    /** Background work one after the other: two quick messages must not both add the same new topic. */
    let learning: Promise<void> = Promise.resolve();
    const inTurn = (work: () => Promise<void>) => {
      learning = learning.then(work).catch((error: unknown) => {
        // An operator answering by hand (the manual engine) is not asked to write memories.
        if (error instanceof BackgroundDeclinedError) logger.debug({ reason: error.message }, 'the engine does not learn memories');
        else logger.warn({ err: error }, 'memory work failed; nothing was learned from it');
      });
      return learning;
    };

    const personOf = (turn: PromptTurn) => memory.personFor(`${turn.interfaceId}:${turn.senderId}`, turn.senderName);
    const asksToBeForgotten = (text: string) => {
      const said = text.trim().toLowerCase();
      return config.get('MEMORY_FORGET_COMMANDS').some((command) => command.toLowerCase() === said);
    };
    const embeddings = (): EmbeddingsSettings | undefined => {
      const model = config.get('MEMORY_EMBEDDINGS_MODEL').trim();
      return model === '' ? undefined : { baseUrl: config.get('OPENAI_BASE_URL'), apiKey: config.get('OPENAI_API_KEY'), model };
    };

    /** The message's vector, or undefined when embeddings are off, fail or are late. */
    const meaningOf = async (text: string) => {
      const settings = embeddings();
      if (!settings) return undefined;
      try {
        const [vector] = await withTimeout(clock, QUERY_EMBEDDING_MS, (signal) => embed(settings, [text], signal));
        return vector ? { model: settings.model, vector } : undefined;
      } catch (error) {
        logger.warn({ err: error }, 'the message could not be embedded; recalling by words alone');
        return undefined;
      }
    };

    const storeVector = async (stored: Memory) => {
      const settings = embeddings();
      if (!settings) return;
      try {
        const [vector] = await withTimeout(clock, config.get('OPENAI_TIMEOUT_S') * 1000, (signal) => embed(settings, [stored.text], signal));
        if (vector) await memory.setEmbedding(stored.id, settings.model, vector);
      } catch (error) {
        logger.warn({ err: error, memory_id: stored.id }, 'a memory could not be embedded; it is found by its words alone');
      }
    };

    const forget = async (turn: PromptTurn, person: Person) => {
      const deleted = await memory.forgetPerson(person.id);
      stretches.forget(person.id);
      logger.info(
        { person_id: person.id, identity: `${turn.interfaceId}:${turn.senderId}`, deleted },
        'a person asked to be forgotten; their memories are deleted',
      );
      return `${turn.senderName} has just asked you to forget them: everything you remembered about them is deleted. Confirm it in one short sentence.`;
    };

    const learnFrom = async (turn: CompletedTurn, person: Person) => {
      const known = (await memory.list({ personId: person.id, limit: KNOWN_FOR_EXTRACTION })).filter((item) => item.kind !== 'episode');
      const answer = await completion.complete({
        messages: extractionPrompt({ senderName: turn.senderName, text: turn.text, reply: turn.reply, known }),
        interfacePath: turn.interfacePath,
        responseFormat: LEARNED_FORMAT,
      });
      const parsed = parseAnswer(answer, LearnedSchema);
      if (!parsed.ok) {
        logger.warn(
          { reason: parsed.reason, answer: answer.slice(0, 500), interface_path: turn.interfacePath },
          'the memory extraction answer was unusable; dropped',
        );
        return;
      }
      for (const item of parsed.value.memories) {
        const { memory: stored, outcome } = await memory.remember({ ...item, person_id: person.id, source_path: turn.interfacePath });
        logger.info({ memory_id: stored.id, person_id: person.id, kind: item.kind, topic: item.topic, outcome }, 'memory learned');
        if (outcome !== 'duplicate') await storeVector(stored);
      }
    };

    const summarise = async (stretch: FinishedStretch) => {
      const answer = await completion.complete({ messages: episodePrompt(stretch.lines), interfacePath: stretch.path, responseFormat: EPISODE_FORMAT });
      const parsed = parseAnswer(answer, EpisodeSchema);
      if (!parsed.ok) {
        logger.warn({ reason: parsed.reason, answer: answer.slice(0, 500), interface_path: stretch.path }, 'the episode summary was unusable; dropped');
        return;
      }
      const { memory: stored } = await memory.remember({
        person_id: stretch.personId,
        kind: 'episode',
        text: parsed.value.summary,
        importance: parsed.value.importance,
        source_path: stretch.path,
      });
      logger.info({ memory_id: stored.id, interface_path: stretch.path }, 'episode remembered');
      await storeVector(stored);
    };

    const stretches = new Stretches(clock, (stretch) => void inTurn(() => summarise(stretch)));

    const afterExchange = async (turn: CompletedTurn) => {
      const person = await personOf(turn);
      await learnFrom(turn, person);
      const lines = [`${turn.senderName}: ${turn.text}`, ...(turn.reply === '' ? [] : [`Anima: ${turn.reply}`])];
      stretches.add(
        turn.interfacePath,
        { personId: person.id, lines },
        {
          messages: config.get('MEMORY_EPISODE_MESSAGES'),
          silenceMs: config.get('MEMORY_EPISODE_SILENCE_MINUTES') * 60_000,
        },
      );
    };

    const recallFor = async (turn: PromptTurn) => {
      const started = performance.now();
      const [person, meaning] = await Promise.all([personOf(turn), meaningOf(turn.text)]);
      if (asksToBeForgotten(turn.text)) return forget(turn, person);
      const recalled = await recall(memory, { personId: person.id, conversationPath: turn.interfacePath }, turn.text, {
        budget: config.get('MEMORY_PROMPT_BUDGET'),
        fadeDays: config.get('MEMORY_FADE_DAYS'),
        now: new Date(clock.now()),
        senderName: turn.senderName,
        ...(meaning ? { meaning } : {}),
      });
      const seconds = (performance.now() - started) / 1000;
      metrics.observeStage('memory_recall', seconds);
      logger.debug({ ms: Math.round(seconds * 1000), person_id: person.id, recalled: recalled.used.length }, 'memories recalled');
      if (recalled.used.length > 0) {
        memory.markRecalled(recalled.used.map((item) => item.id)).catch((error: unknown) => logger.warn({ err: error }, 'could not note the recall'));
      }
      return recalled.text === '' ? undefined : recalled.text;
    };

    return {
      // Switched off, it answers at once: a pending context costs the message a deadline timer.
      promptContext: (turn) => (config.get('MEMORY_ENABLED') ? recallFor(turn) : undefined),
      afterReply(turn) {
        if (!config.get('MEMORY_ENABLED') || asksToBeForgotten(turn.text)) return;
        return inTurn(() => afterExchange(turn));
      },
      stop: () => stretches.stop(),
    };
  },
});
