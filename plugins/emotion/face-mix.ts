/**
 * The face for a set of emotion levels: each emotion's preset (blend shape to weight) scaled by its
 * level, the strongest contribution winning a shared blend shape (as the web UI's face combines layers).
 * Every blend shape any preset names is present, at 0 when no emotion moves it, so a face at rest
 * clears what an emotion had set.
 */
export function faceValues(presets: Record<string, Record<string, number>>, levels: Record<string, number>): Record<string, number> {
  const face: Record<string, number> = {};
  for (const preset of Object.values(presets)) for (const shape of Object.keys(preset)) face[shape] = 0;
  for (const [name, level] of Object.entries(levels)) {
    for (const [shape, weight] of Object.entries(presets[name] ?? {})) face[shape] = Math.max(face[shape] ?? 0, Math.round(weight * level * 1000) / 1000);
  }
  return face;
}
