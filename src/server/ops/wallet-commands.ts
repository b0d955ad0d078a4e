import type { Command } from './commands';

// Operator commands of the wallet (issue 3): topup:confirm, topup:reject, withdrawal:complete, withdrawal:refuse.
export const WALLET_COMMANDS: Record<string, Command> = {};
