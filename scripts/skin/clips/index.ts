/** Every clip of the default skin. */
import type { Clip } from './clip.ts';
import { IDLE_CLIPS } from './idle.ts';
import { TALK_CLIPS } from './talk.ts';
import { THINK_CLIPS } from './think.ts';
import { WRITE_CLIPS } from './write.ts';

export const CLIPS: Clip[] = [...IDLE_CLIPS, ...THINK_CLIPS, ...WRITE_CLIPS, ...TALK_CLIPS];
