/** A User Timing mark of a start step (`canopy:<name>`): bench/offline-start.ts reads them to show where a
 *  cold start's time goes. Costs nothing to a user. */
export const mark = (name: string): void => void performance.mark?.(`canopy:${name}`);
