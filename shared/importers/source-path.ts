// Hints a record does not carry but its path does: harnesses file results under the model's name.

/** The path segment after `marker` (`…/result/<model>/…`), when something follows it. */
export function segmentAfter(path: string | undefined, marker: string): string | undefined {
  if (!path) return undefined;
  const parts = path.split(/[\\/]/);
  const i = parts.lastIndexOf(marker);
  return i >= 0 && i + 1 < parts.length - 1 ? parts[i + 1] : undefined;
}
