/** D1 binds at most 100 parameters per statement, so long id lists are queried in slices. */
const D1_MAX_BOUND_PARAMETERS = 100;

export function inSlices<T>(items: readonly T[], size = D1_MAX_BOUND_PARAMETERS - 10): T[][] {
  const slices: T[][] = [];
  for (let start = 0; start < items.length; start += size) slices.push(items.slice(start, start + size));
  return slices;
}
