/**
 * The tone of a reply that carried no emotion tag: a few telling words per common emotion. It only
 * nudges the face (a weak cue); tags and tts_speak emotions are what the model means.
 */
const CUES: Readonly<Record<string, RegExp>> = {
  happy: /\b(?:haha|hehe|yay|glad|great|wonderful|awesome|lovely|delighted|happy)\b|[:;]-?\)|[\u{1F600}-\u{1F606}\u{1F60A}\u{1F642}]/giu,
  sad: /\b(?:sorry|sad|unfortunately|alas|miss you)\b|:-?\(|[\u{1F622}\u{1F62D}\u{1F641}]/giu,
  angry: /\b(?:angry|furious|annoying|outrageous|how dare)\b|[\u{1F620}\u{1F621}]/giu,
  surprised: /\b(?:wow|whoa|no way|unbelievable)\b|!\?|\?!|[\u{1F62E}\u{1F632}]/giu,
  relaxed: /\b(?:relax|relaxed|calm|no worries|take it easy|cozy|peaceful)\b/giu,
};

/** The emotion (of `known`) the reply's words point to most, if any. */
export function replyMood(reply: string, known: ReadonlySet<string>): string | undefined {
  let best: [string, number] | undefined;
  for (const [name, pattern] of Object.entries(CUES)) {
    if (!known.has(name)) continue;
    const count = reply.match(pattern)?.length ?? 0;
    if (count > (best?.[1] ?? 0)) best = [name, count];
  }
  return best?.[0];
}
