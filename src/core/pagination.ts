import { fail } from './errors.js';

export interface Page<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface PageRequest {
  limit?: number | undefined;
  starting_after?: string | undefined;
}

/**
 * The one cursor pager. `ordered` is everything the caller may see, in list order, before
 * filters; the cursor is the id of the last item of the previous page, located there, so a
 * walk sees each item once even while items are added (they land before the cursor) or
 * change so that a filter no longer matches them.
 */
export function paginate<T>(
  ordered: readonly T[],
  idOf: (item: T) => string,
  request: PageRequest,
  options: { defaultLimit: number; filter?: (item: T) => boolean },
): Page<T> {
  const limit = request.limit ?? options.defaultLimit;
  let start = 0;
  if (request.starting_after !== undefined) {
    const at = ordered.findIndex((item) => idOf(item) === request.starting_after);
    if (at < 0) throw fail('cursor_invalid', `The cursor ${request.starting_after} is not known for this list.`, 'starting_after');
    start = at + 1;
  }
  const data: T[] = [];
  let hasMore = false;
  for (let i = start; i < ordered.length; i++) {
    const item = ordered[i]!;
    if (options.filter && !options.filter(item)) continue;
    if (data.length === limit) {
      hasMore = true;
      break;
    }
    data.push(item);
  }
  return {
    object: 'list',
    data,
    has_more: hasMore,
    next_cursor: hasMore ? idOf(data[data.length - 1]!) : null,
  };
}

/** Maps the items of a page, keeping its envelope. */
export function mapPage<T, U>(page: Page<T>, fn: (item: T) => U): Page<U> {
  return { ...page, data: page.data.map(fn) };
}
