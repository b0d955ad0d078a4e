import { Hono } from 'hono';
import type { AppEnv } from '../../app';

// Wallet: top-ups, withdrawals, fund logs (issue 3).
export const walletRoutes = new Hono<AppEnv>();
