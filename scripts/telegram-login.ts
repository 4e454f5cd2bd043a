/**
 * `npm run telegram:login`: the one-time login of the Telegram user-account interface
 * (`interface_dev/telegram_user`). Asks for the phone number, the code Telegram sends and the two-step
 * password if there is one, then prints the session string to save as TELEGRAM_SESSION. TELEGRAM_API_ID
 * and TELEGRAM_API_HASH (from https://my.telegram.org, "API development tools") are read from the
 * environment or asked for. The session is a full login to the account: keep it secret.
 */
import { createInterface } from 'node:readline/promises';
import { TelegramClient } from 'telegram';
import { Logger, LogLevel } from 'telegram/extensions/Logger.js';
import { StringSession } from 'telegram/sessions/index.js';

const terminal = createInterface({ input: process.stdin, output: process.stdout });
const ask = async (question: string) => (await terminal.question(question)).trim();

async function main(): Promise<void> {
  const apiId = Number(process.env.TELEGRAM_API_ID?.trim() || (await ask('TELEGRAM_API_ID: ')));
  const apiHash = process.env.TELEGRAM_API_HASH?.trim() || (await ask('TELEGRAM_API_HASH: '));
  if (!Number.isInteger(apiId) || apiId <= 0 || apiHash === '') throw new Error('TELEGRAM_API_ID must be a number and TELEGRAM_API_HASH must be set');
  const session = new StringSession('');
  const client = new TelegramClient(session, apiId, apiHash, { connectionRetries: 3, baseLogger: new Logger(LogLevel.ERROR) });
  await client.start({
    phoneNumber: () => ask('Phone number (international format, +...): '),
    phoneCode: () => ask('The code Telegram sent: '),
    password: () => ask('Two-step verification password (empty if none): '),
    onError: (error) => console.error(`Telegram: ${error.message}`),
  });
  console.log('\nLogged in. Save this line in .env (or on the Configuration page) and keep it secret:\n');
  console.log(`TELEGRAM_SESSION=${session.save()}\n`);
  await client.destroy();
}

main()
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  })
  .finally(() => terminal.close());
