import { gramJsClient } from './client.ts';
import { userAccountInterface } from './definition.ts';

/**
 * The Telegram user-account bot (development), on GramJS. TELEGRAM_SESSION comes from the one-time
 * `npm run telegram:login`.
 */
export default userAccountInterface(gramJsClient);
