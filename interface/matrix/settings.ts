import { resolve } from 'node:path';
import type { ComponentContext } from '../../src/components/contract.ts';

/** The account as configured. */
export interface Settings {
  homeserver: string;
  userId: string;
  password: string;
  accessToken: string;
}

/** The variables that name the account: a change signs in again. */
export const ACCOUNT_KEYS = ['MATRIX_HOMESERVER', 'MATRIX_USER_ID', 'MATRIX_PASSWORD', 'MATRIX_ACCESS_TOKEN'] as const;

export type MatrixContext = ComponentContext<'chain' | 'voice' | 'clock'>;

/** The account as configured now; a trailing slash of the homeserver is dropped so one account is one session file. */
export function settingsOf({ config }: MatrixContext): Settings {
  return {
    homeserver: config.get('MATRIX_HOMESERVER').trim().replace(/\/+$/, ''),
    userId: config.get('MATRIX_USER_ID').trim(),
    password: config.get('MATRIX_PASSWORD'),
    accessToken: config.get('MATRIX_ACCESS_TOKEN').trim(),
  };
}

/** The folder whose files the actions may send: where Vox writes the speech it hands to `send_media_matrix`. */
export const voxFolderOf = ({ paths, config }: MatrixContext) => resolve(paths.cwd, config.get('VOX_OUTPUT_DIR'));
