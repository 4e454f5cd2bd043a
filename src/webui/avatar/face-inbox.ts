/**
 * The face messages (`vrm_face`, `vrm_expression_set`/`clear`) between the socket and the face. Before a
 * model is shown they are kept, not dropped: the latest value of each face key (they are targets, so
 * later values replace earlier ones) and the latest expression override, applied when the face attaches.
 * The override is a state until cleared, so it is also given to the face of every later model.
 */
export interface FaceTarget {
  applyFace(values: Record<string, number>): void;
  setExpression(name: string, intensity: number): void;
  clearExpression(): void;
}

export class FaceInbox {
  private target: FaceTarget | undefined;
  private readonly values = new Map<string, number>();
  private expression: { name: string; intensity: number } | undefined;

  face(values: Record<string, number>): void {
    if (this.target) {
      this.target.applyFace(values);
      return;
    }
    for (const [key, value] of Object.entries(values)) this.values.set(key, value);
  }

  setExpression(name: string, intensity: number): void {
    this.expression = { name, intensity };
    this.target?.setExpression(name, intensity);
  }

  clearExpression(): void {
    this.expression = undefined;
    this.target?.clearExpression();
  }

  /** The face of a newly shown model: it gets what waited for it. */
  attach(target: FaceTarget): void {
    this.target = target;
    if (this.values.size > 0) target.applyFace(Object.fromEntries(this.values));
    this.values.clear();
    if (this.expression) target.setExpression(this.expression.name, this.expression.intensity);
  }
}
