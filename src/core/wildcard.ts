/**
 * Scenario match patterns: `*` any run of characters (none included), `?` exactly one,
 * everything else literal; the whole value, ignoring case. No regular expression: the literal
 * pieces between stars are found left to right, each at its first place, which decides a star
 * pattern without backtracking, so the time grows with the value's length times the pattern's
 * (at most 200 characters), never faster, whatever either holds.
 */
export function wildcardMatch(pattern: string, value: string): boolean {
  const v = [...value.toLowerCase()];
  const pieces = pattern.toLowerCase().split('*').map((piece) => [...piece]);
  if (pieces.length === 1) return v.length === pieces[0]!.length && pieceAt(pieces[0]!, v, 0);
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const end = v.length - last.length;
  if (end < first.length || !pieceAt(first, v, 0) || !pieceAt(last, v, end)) return false;
  let from = first.length;
  for (const piece of pieces.slice(1, -1)) {
    let at = from;
    while (at + piece.length <= end && !pieceAt(piece, v, at)) at++;
    if (at + piece.length > end) return false;
    from = at + piece.length;
  }
  return true;
}

/** Does `piece` (with `?` for any one character) stand in `value` at `at`? */
function pieceAt(piece: readonly string[], value: readonly string[], at: number): boolean {
  for (let i = 0; i < piece.length; i++) {
    if (piece[i] !== '?' && piece[i] !== value[at + i]) return false;
  }
  return true;
}
