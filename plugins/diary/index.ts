import { z } from 'zod';
import { definePlugin } from '../../src/components/contract.ts';

const WriteDiarySchema = z.object({
  text: z.string().trim().min(1).max(20_000),
  tags: z.array(z.string().trim().min(1).max(64)).max(20).optional(),
});

/** The assistant keeps a diary: `write_diary` adds an entry (shown by GET /api/diary). */
export default definePlugin({
  description: 'Lets the assistant write diary entries.',
  needs: ['diary'],
  create: ({ services: { diary }, logger }) => ({
    actions: {
      write_diary: {
        schema: WriteDiarySchema,
        brief: 'Write a private diary entry about something worth remembering.',
        examples: [{ text: 'Today Sam told me about their new job.', tags: ['sam'] }],
        instructions: 'Use it sparingly, for things you want to remember later; the user does not see it in the chat.',
      },
    },
    async handleAction(_type, payload, origin) {
      const { text, tags } = WriteDiarySchema.parse(payload);
      const id = await diary.write({ text, tags: tags ?? [], interfacePath: origin.interfacePath });
      logger.info({ id, interface_path: origin.interfacePath }, 'diary entry written');
    },
  }),
});
