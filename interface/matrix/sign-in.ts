import { createClient, MatrixError } from 'matrix-js-sdk';
import type { Logger } from 'pino';
import type { SessionFile } from './session-file.ts';
import type { Settings } from './settings.ts';

export interface Identity {
  userId: string;
  deviceId: string | undefined;
  accessToken: string;
  /** Made by a password login (kept in the session file), not configured. */
  byPassword: boolean;
}

/** The homeserver turned the credentials down: trying again changes nothing until the configuration does. */
export class SignInRefused extends Error {}

const DEVICE_NAME = 'Anima';
/** How long a sign-in request may take before it counts as the homeserver not answering. */
const SIGN_IN_TIMEOUT_MS = 30_000;

const refusedToken = (error: unknown) => error instanceof MatrixError && (error.errcode === 'M_UNKNOWN_TOKEN' || error.errcode === 'M_MISSING_TOKEN');
const refusal = (error: unknown) =>
  error instanceof MatrixError && error.httpStatus !== undefined && error.httpStatus >= 400 && error.httpStatus < 500 && error.httpStatus !== 429;

/**
 * Who the interface is on the homeserver: MATRIX_ACCESS_TOKEN when set, else the token a password login
 * obtained earlier (kept in the session file), else a new password login, whose token is then kept. A
 * token the homeserver no longer knows falls back to the password. Transient failures (network, 5xx,
 * 429) throw as they are, for the caller to retry; refusals throw SignInRefused.
 */
export async function signIn(settings: Settings, file: SessionFile, logger: Logger): Promise<Identity> {
  const kept = await file.load();
  if (settings.accessToken !== '') {
    try {
      return { ...(await whoami(settings, settings.accessToken)), accessToken: settings.accessToken, byPassword: false };
    } catch (error) {
      if (!refusedToken(error) || settings.password === '') throw explained(error, 'MATRIX_ACCESS_TOKEN was refused');
      logger.warn('MATRIX_ACCESS_TOKEN was refused; logging in with MATRIX_PASSWORD');
    }
  } else if (kept.login) {
    try {
      return { ...(await whoami(settings, kept.login.accessToken)), accessToken: kept.login.accessToken, byPassword: true };
    } catch (error) {
      if (!refusedToken(error)) throw error;
      logger.info('the kept Matrix access token is no longer valid; logging in again');
    }
  }
  if (settings.password === '') throw new SignInRefused('no MATRIX_PASSWORD to log in with');
  const login = await createClient({ baseUrl: settings.homeserver, localTimeoutMs: SIGN_IN_TIMEOUT_MS })
    .loginRequest({
      type: 'm.login.password',
      identifier: { type: 'm.id.user', user: settings.userId },
      password: settings.password,
      initial_device_display_name: DEVICE_NAME,
      // The same device as the last login, so the account does not collect one per restart.
      ...(kept.login ? { device_id: kept.login.deviceId } : {}),
    })
    .catch((error: unknown) => {
      throw explained(error, 'the password login was refused');
    });
  await file.update({ login: { accessToken: login.access_token, deviceId: login.device_id } });
  logger.info({ user_id: login.user_id, device_id: login.device_id }, 'logged in to Matrix with MATRIX_PASSWORD; the access token is kept');
  return { userId: login.user_id, deviceId: login.device_id, accessToken: login.access_token, byPassword: true };
}

async function whoami(settings: Settings, accessToken: string): Promise<{ userId: string; deviceId: string | undefined }> {
  const answer = await createClient({ baseUrl: settings.homeserver, accessToken, localTimeoutMs: SIGN_IN_TIMEOUT_MS }).whoami();
  if (answer.user_id !== settings.userId) throw new SignInRefused(`the access token belongs to ${answer.user_id}, not MATRIX_USER_ID ${settings.userId}`);
  return { userId: answer.user_id, deviceId: answer.device_id };
}

function explained(error: unknown, what: string): unknown {
  if (!refusal(error)) return error;
  const reason = error instanceof MatrixError ? `${error.errcode ?? error.httpStatus}: ${error.data.error ?? error.message}` : String(error);
  return new SignInRefused(`${what} (${reason})`);
}
