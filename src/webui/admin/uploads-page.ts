/** Uploads: animation clips for the avatar's states, and a custom VRM model, by drag and drop. */
import type { View } from '../view.ts';
import { animationUploads } from './uploads/animation-uploads.ts';
import { ignoreStrayDrops } from './uploads/drop-zone.ts';
import { modelUpload } from './uploads/model-upload.ts';

export const view: View = (root) => {
  root.append(animationUploads(), modelUpload());
  return ignoreStrayDrops();
};
