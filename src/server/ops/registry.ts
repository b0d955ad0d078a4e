import { CORE_COMMANDS, type Command } from './commands';
import { WALLET_COMMANDS } from './wallet-commands';
import { MARKET_COMMANDS } from './market-commands';

export const COMMANDS: Record<string, Command> = { ...CORE_COMMANDS, ...WALLET_COMMANDS, ...MARKET_COMMANDS };
