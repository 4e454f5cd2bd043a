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
  private values: Record<string, number> = {};
  private updatedAt: number | undefined;
  private expression: { name: string; intensity: number } | undefined;

  /** Replaces the values; returns the broadcast when they changed. */
  setValues(values: Record<string, number>, now: number): VrmFaceMessage | undefined {
    const clamped = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, clampWeight(value)]));
    if (sameValues(clamped, this.values)) return undefined;
    this.values = clamped;
    this.updatedAt = now;
    return this.message();
  }

  message(): VrmFaceMessage {
    return { type: 'vrm_face', values: { ...this.values } };
  }

  current(): Record<string, number> {
    return { ...this.values };
  }

  setExpression(name: string, intensity: number): ExpressionMessage | undefined {
    const clamped = clampWeight(intensity);
    if (this.expression?.name === name && this.expression.intensity === clamped) return undefined;
    this.expression = { name, intensity: clamped };
    return { type: 'vrm_expression_set', name, intensity: clamped };
  }

  clearExpression(): ExpressionMessage | undefined {
    if (!this.expression) return undefined;
    this.expression = undefined;
    return { type: 'vrm_expression_clear' };
  }

  /** GET /api/emotion_state: the face values, the dominant emotion when an emotion source knows it. */
  emotionState(emotions: EmotionSnapshot | undefined) {
    return {
      values: this.current(),
      dominant: emotions?.dominant ?? null,
      updated_at: this.updatedAt === undefined ? null : new Date(this.updatedAt).toISOString(),
    };
  }
}
