// The order list's tabs, in a module of their own: the route's search validation runs in the main bundle,
// which should not carry the order screens' labels and maths.
export const ORDER_TABS = ['all', 'in_progress', 'pending', 'completed', 'sell'] as const;
export type OrderTab = (typeof ORDER_TABS)[number];
