import { describe, expect, it } from 'vitest';
import { FaceInbox, type FaceTarget } from '../../src/webui/avatar/face-inbox.ts';

function recordingFace(): FaceTarget & { calls: unknown[][] } {
  const calls: unknown[][] = [];
  return {
    calls,
    applyFace: (values) => void calls.push(['face', values]),
    setExpression: (name, intensity) => void calls.push(['set', name, intensity]),
    clearExpression: () => void calls.push(['clear']),
  };
}

describe('face messages that arrive before the model', () => {
  it('keeps the latest face values (each vrm_face is the whole map) and the latest override, and applies them on attach', () => {
    const inbox = new FaceInbox();
    inbox.face({ happy: 0.4, eyes_closed: 0.2 });
    inbox.face({ happy: 0.9 });
    inbox.setExpression('angry', 1);
    inbox.setExpression('surprised', 0.6);
    const face = recordingFace();
    inbox.attach(face);
    expect(face.calls).toEqual([
      ['face', { happy: 0.9 }],
      ['set', 'surprised', 0.6],
    ]);
  });

  it('drops an override cleared before the model, and applies nothing when nothing came', () => {
    const inbox = new FaceInbox();
    inbox.setExpression('sad', 1);
    inbox.clearExpression();
    const face = recordingFace();
    inbox.attach(face);
    expect(face.calls).toEqual([]);
  });

  it('passes messages straight through once attached, and gives a later model the standing override only', () => {
    const inbox = new FaceInbox();
    const first = recordingFace();
    inbox.attach(first);
    inbox.face({ happy: 1 });
    inbox.setExpression('relaxed', 0.5);
    expect(first.calls).toEqual([
      ['face', { happy: 1 }],
      ['set', 'relaxed', 0.5],
    ]);
    const second = recordingFace();
    inbox.attach(second);
    expect(second.calls).toEqual([['set', 'relaxed', 0.5]]);
    inbox.clearExpression();
    expect(second.calls.at(-1)).toEqual(['clear']);
    expect(first.calls).toHaveLength(2);
  });
});
