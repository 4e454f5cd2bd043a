/**
 * The face messages (`vrm_face`, `vrm_expression_set`/`clear`) between the socket and the face. Before a
 * model is shown they are kept, not dropped: the latest face values (each message is the whole map, so
 * it replaces the one before) and the latest expression override, applied when the face attaches.
 * The override is a state until cleared, so it is also given to the face of every later model.
 */
export interface FaceTarget {
  applyFace(values: Record<string, number>): void;
  setExpression(name: string, intensity: number): void;
  clearExpression(): void;
}

export class FaceInbox {
  private target: FaceTarget | undefined;
  private values: Record<string, number> | undefined;
  private expression: { name: string; intensity: number } | undefined;

  face(values: Record<string, number>): void {
    if (this.target) {
      this.target.applyFace(values);
      return;
    }
    this.values = values;
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
    if (this.values) target.applyFace(this.values);
    this.values = undefined;
    if (this.expression) target.setExpression(this.expression.name, this.expression.intensity);
  }
}
