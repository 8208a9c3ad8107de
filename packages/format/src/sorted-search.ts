// One binary search for "which span holds this position": line starts of a file, entry starts of a
// joined column.

/** The last index i < length with sorted[i] <= value (0 when none is): sorted ascending. */
export function lastAtOrBefore(sorted: ArrayLike<number>, value: number, length = sorted.length): number {
  let low = 0;
  let high = length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (sorted[mid]! <= value) low = mid;
    else high = mid - 1;
  }
  return low;
}
