import { join, resolve } from 'node:path';
import type { AllowedFolders, ComponentContext } from '../../src/components/contract.ts';

/** The variables whose change replaces the connection: another token, server or API version. */
export const CONNECTION_KEYS = ['FLUXER_BOT_TOKEN', 'FLUXER_API_BASE_URL', 'FLUXER_GATEWAY_URL', 'FLUXER_API_VERSION'] as const;

/** Fluxer's public instance and API version, used while the variables are blank. */
export const DEFAULT_API_BASE_URL = 'https://api.fluxer.app';
export const DEFAULT_API_VERSION = '1';

export interface FluxerSettings {
  /** The token as the gateway's IDENTIFY carries it (without the `Bot ` prefix, as Discord v10 does). */
  token: string;
  /** The REST `Authorization` header: `Bot <token>`. */
  authorization: string;
  /** The REST root with its version, `https://api.fluxer.app/v1`. */
  restBase: string;
  /** FLUXER_GATEWAY_URL, or undefined to ask `GET /gateway/bot`. */
  gatewayUrl: string | undefined;
  version: string;
}

type ConfigOnly = Pick<ComponentContext, 'config'>;

/** The settings as configured now. A base URL that already ends in `/v<n>` is taken as the versioned root. */
export function settingsOf({ config }: ConfigOnly): FluxerSettings {
  const token = config
    .get('FLUXER_BOT_TOKEN')
    .trim()
    .replace(/^Bot\s+/i, '');
  const version = config.get('FLUXER_API_VERSION').trim().replace(/^v/i, '') || DEFAULT_API_VERSION;
  const base = (config.get('FLUXER_API_BASE_URL').trim() || DEFAULT_API_BASE_URL).replace(/\/+$/, '');
  const gatewayUrl = config.get('FLUXER_GATEWAY_URL').trim();
  return {
    token,
    authorization: `Bot ${token}`,
    restBase: /\/v\d+$/.test(base) ? base : `${base}/v${version}`,
    gatewayUrl: gatewayUrl === '' ? undefined : gatewayUrl,
    version,
  };
}

/** The folder an operator puts files in for the model to share with `send_file_fluxer`. */
export const sharedFolderOf = ({ paths }: Pick<ComponentContext, 'paths'>) => join(resolve(paths.cwd, paths.backups), 'fluxer', 'files');

/** The only folders a `file://` URL may name: Vox's speech (VOX_OUTPUT_DIR) and the shared folder. */
export function allowedFoldersOf(context: Pick<ComponentContext, 'paths' | 'config'>): AllowedFolders {
  return {
    folders: [resolve(context.paths.cwd, context.config.get('VOX_OUTPUT_DIR')), sharedFolderOf(context)],
    label: 'VOX_OUTPUT_DIR or <BACKUPS_DIR>/fluxer/files',
  };
}
