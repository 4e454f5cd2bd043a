import type { EmotionSnapshot, ExpressionMessage, VrmFaceMessage } from './messages.ts';

/** Blend-shape weights are 0.0 to 1.0. */
function clampWeight(value: number): number {
  return Math.min(1, Math.max(0, value));
}

function sameValues(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** Face blend-shape values and the short-lived expression override; reports only real changes. */
export class FaceState {
  /** One message per change: the broadcast, every welcome and the state snapshot share it. */
  private latest: VrmFaceMessage = { type: 'vrm_face', values: {} };
  private updatedAt: number | undefined;
  private expression: { name: string; intensity: number } | undefined;

  /** Replaces the values; returns the broadcast when they changed. */
  setValues(values: Record<string, number>, now: number): VrmFaceMessage | undefined {
    const clamped = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, clampWeight(value)]));
    if (sameValues(clamped, this.latest.values)) return undefined;
    this.latest = { type: 'vrm_face', values: clamped };
    this.updatedAt = now;
    return this.latest;
  }

  /** The current values as a message; shared, never to be mutated. */
  message(): VrmFaceMessage {
    return this.latest;
  }

  current(): Record<string, number> {
    return { ...this.latest.values };
  }

  setExpression(name: string, intensity: number): ExpressionMessage | undefined {
    const clamped = clampWeight(intensity);
    if (this.expression?.name === name && this.expression.intensity === clamped) return undefined;
    this.expression = { name, intensity: clamped };
    return { type: 'vrm_expression_set', name, intensity: clamped };
  }

  /** The override that stands now, for a client that joins while it shows. */
  standingExpression(): ExpressionMessage | undefined {
    return this.expression && { type: 'vrm_expression_set', ...this.expression };
  }

  clearExpression(): ExpressionMessage | undefined {
    if (!this.expression) return undefined;
    this.expression = undefined;
    return { type: 'vrm_expression_clear' };
  }

  /**
   * GET /api/emotion_state: each emotion's level and the dominant one (from the emotion manager; empty and
   * null while the face is at rest), the face's blend-shape values beside them.
   */
  emotionState(emotions: EmotionSnapshot | undefined) {
    return {
      values: emotions?.values ?? {},
      dominant: emotions?.dominant ?? null,
      blendshapes: this.current(),
      updated_at: this.updatedAt === undefined ? null : new Date(this.updatedAt).toISOString(),
    };
  }
}
