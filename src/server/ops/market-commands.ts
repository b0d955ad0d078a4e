import type { Command } from './commands';

// Operator commands of the marketplace (issue 4): presale:allocate and friends.
export const MARKET_COMMANDS: Record<string, Command> = {};
