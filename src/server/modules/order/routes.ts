import { Hono } from 'hono';
import type { AppEnv } from '../../app';

// Orders: buy, book, final payment, sell, lists (issue 4).
export const orderRoutes = new Hono<AppEnv>();
