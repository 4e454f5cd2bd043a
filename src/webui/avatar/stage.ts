/** The three.js scene around the avatar: renderer, camera framed on the model, light, the frame loop. */
import type { VRM } from '@pixiv/three-vrm';
import { Color, DirectionalLight, PerspectiveCamera, Scene, Timer, Vector3, WebGLRenderer } from 'three';

export const BACKGROUND = 0x1b2030;
/** Long pauses (a hidden tab) must not fast-forward animations in one jump. */
const MAX_DELTA_S = 0.1;

declare global {
  interface Window {
    /** performance.now() of the first frame that showed the avatar (read by the benchmark and tests). */
    __anima_first_avatar_frame?: number;
  }
}

export class Stage {
  readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(30, 1, 0.05, 50);
  private readonly renderer: WebGLRenderer;
  private readonly timer = new Timer();
  private readonly callbacks: Array<(delta: number) => void> = [];
  private vrm: VRM | undefined;
  private shown: () => void = () => undefined;
  /** Resolves once a frame with the avatar is on screen; later work (clips) waits for it. */
  readonly firstAvatarFrame = new Promise<void>((resolve) => (this.shown = resolve));
  /** What the camera keeps in view: the model from the thighs up, in metres. */
  private framing = { centre: 1.2, halfHeight: 0.6, halfWidth: 0.5 };
  visible = true;
  /** Test seam (`window.__app_face.hold`): frames still render, but time moves only through `step`. */
  private held = false;

  constructor(private readonly canvas: HTMLCanvasElement) {
    this.renderer = new WebGLRenderer({ canvas, antialias: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.scene.background = new Color(BACKGROUND);
    const light = new DirectionalLight(0xffffff, Math.PI);
    light.position.set(1, 1.5, 2).normalize();
    this.scene.add(light, this.camera);
    this.camera.position.set(0, 1.3, 3);
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.resize();
  }

  onFrame(callback: (delta: number) => void): void {
    this.callbacks.push(callback);
  }

  /** Stops (or restarts) the frame clock; while it is held, `step` alone advances the avatar. */
  hold(held: boolean): void {
    this.held = held;
  }

  /** Advances everything that runs per frame by `delta` seconds, at once. */
  step(delta: number): void {
    for (const callback of this.callbacks) callback(delta);
  }

  start(): void {
    this.timer.connect(document);
    this.renderer.setAnimationLoop((time) => this.frame(time));
  }

  /** Shows this model instead of the previous one, framed from the thighs up. */
  setVrm(vrm: VRM): VRM | undefined {
    const previous = this.vrm;
    if (previous) this.scene.remove(previous.scene);
    this.vrm = vrm;
    this.scene.add(vrm.scene);
    vrm.scene.updateMatrixWorld(true);
    const v = new Vector3();
    const head = vrm.humanoid.getNormalizedBoneNode('head')?.getWorldPosition(v).y ?? 1.4;
    const hips = vrm.humanoid.getNormalizedBoneNode('hips')?.getWorldPosition(v).y ?? 0.9;
    const torso = head - hips;
    const top = head + torso * 0.75;
    const bottom = hips - torso * 0.6;
    this.framing = { centre: (top + bottom) / 2, halfHeight: (top - bottom) / 2, halfWidth: torso * 0.9 };
    this.frameCamera();
    return previous;
  }

  /** Fits the framed box in height and, on narrow (phone) screens, in width. */
  private frameCamera(): void {
    const { centre, halfHeight, halfWidth } = this.framing;
    const tan = Math.tan((this.camera.fov * Math.PI) / 360);
    const distance = Math.max(halfHeight / tan, halfWidth / (tan * this.camera.aspect)) * 1.05;
    this.camera.position.set(0, centre, distance);
    this.camera.lookAt(0, centre, 0);
  }

  private resize(): void {
    const width = Math.max(1, this.canvas.clientWidth);
    const height = Math.max(1, this.canvas.clientHeight);
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.frameCamera();
  }

  private frame(time: number): void {
    this.timer.update(time);
    if (!this.held) this.step(Math.min(MAX_DELTA_S, this.timer.getDelta()));
    if (!this.visible) return;
    this.renderer.render(this.scene, this.camera);
    if (this.vrm && window.__anima_first_avatar_frame === undefined) {
      window.__anima_first_avatar_frame = performance.now();
      this.shown();
    }
  }
}
