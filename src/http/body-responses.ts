import { z } from 'zod';
import { LipsyncSchema } from '../audio/lipsync.ts';
import type { Asset } from '../body/asset-manifest.ts';
import { DescriptorSchema, type DescriptorAnalysis } from '../body/descriptor.ts';
import type { AnimationView, AudioState, FullBodyState, VrmModel } from '../body/messages.ts';

/**
 * The answers of the body API (`/api/body/*`), for the OpenAPI document and as a guard on their shape.
 * Each schema is typed by the body's own declaration, so the two cannot drift apart.
 */

const ModelSchema: z.ZodType<VrmModel> = z.object({ name: z.string(), url: z.string(), hash: z.string().optional() });

export const AnimationViewSchema: z.ZodType<AnimationView> = z.object({
  state: z.string(),
  file: z.string().nullable(),
  url: z.string().nullable(),
  loop: z.boolean(),
  phase: z.string(),
  descriptor: DescriptorSchema.nullable(),
  started_at: z.string(),
  priority: z.number(),
  contexts: z.array(z.string()),
});

const FaceValuesSchema = z.record(z.string(), z.number());

const AudioSchema: z.ZodType<AudioState> = z.object({
  url: z.string(),
  audio_duration_s: z.number(),
  lipsync_data: LipsyncSchema.nullable(),
  offset_s: z.number(),
});

export const FullStateSchema: z.ZodType<FullBodyState> = z.object({
  vrm_model: ModelSchema.nullable(),
  animation: AnimationViewSchema,
  face_values: FaceValuesSchema,
  audio: AudioSchema.nullable(),
});

export const ModelAnswerSchema = z.object({ vrm_model: ModelSchema.nullable() });
export const FaceAnswerSchema = z.object({ face_values: FaceValuesSchema });
export const AudioAnswerSchema = z.object({ audio: AudioSchema.nullable() });

const ListingSchema = z.object({ file: z.string(), url: z.string(), descriptor: DescriptorSchema.nullable() });

export const VariantsSchema = z.object({
  state: z.string(),
  sequential: z.boolean(),
  variants: z.object({ loop: z.array(ListingSchema), post: z.array(ListingSchema), other: z.array(ListingSchema) }),
});

const SecondsSchema = z.number().nullable();
const AnalysisSchema: z.ZodType<DescriptorAnalysis> = z.object({
  has_intro: z.boolean(),
  has_loop: z.boolean(),
  has_outro: z.boolean(),
  play_once: z.boolean(),
  fps: z.number(),
  durations: z.object({ intro: SecondsSchema, loop: SecondsSchema, outro: SecondsSchema, total: z.number() }),
  warnings: z.array(z.string()),
});

export const FileDescriptorSchema = ListingSchema.extend({ state: z.string(), analysis: AnalysisSchema.nullable() });

export const DescriptorManifestSchema = z.object({
  descriptors: z.array(z.object({ descriptor_id: z.string(), state: z.string(), file: z.string(), animation_url: z.string(), descriptor: DescriptorSchema })),
});

export const ResolvedDescriptorSchema = z.object({ animation_url: z.string(), descriptor_data: DescriptorSchema });

const AssetSchema: z.ZodType<Asset> = z.object({
  url: z.string(),
  hash: z.string(),
  size: z.number(),
  kind: z.enum(['vrm', 'animation', 'descriptor', 'persona']),
});

export const AssetManifestSchema = z.object({ assets: z.array(AssetSchema) });
export const MissingAssetsSchema = z.object({ missing: z.array(AssetSchema) });
