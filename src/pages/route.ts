import type { ApiError } from '../core/errors.js';
import type { Workspace } from '../core/workspace.js';
import type { RawFile, Redirect, Reply, RequestInfo, RowBase } from '../operations/reply.js';

/**
 * The pages a person opens are rows too, beside the API's and the control API's: the same base
 * (RowBase), the same Reply (an HTML document, a file or a redirect) and the same pipeline; a page
 * row adds how its link finds the workspace and how its form is read. src/http mounts the rows
 * and builds their OpenAPI operations from them.
 */
type PageMethod = 'GET' | 'POST';

/** What a page answers: the reply every row gives, its body a whole HTML document, a file, or a redirect. */
export type PageReply = Reply<RawFile | Redirect>;

/** A web form as the one reader read it (urlencoded or multipart). */
export interface PageForm {
  /** A text field; undefined when it was not sent (or was a file). */
  text(name: string): string | undefined;
  /** A file field: its name, type, size and first bytes; null when none was sent. */
  file(name: string): Promise<FormFile | null>;
}

export interface FormFile {
  name: string;
  /** The type the browser declared. */
  type: string;
  size: number;
  /** The first 16 bytes: enough to tell the file's kind. */
  bytes: Uint8Array;
}

/** What the form of a row may be, and the words for one that cannot be read. */
export interface FormRules {
  /** The form carries a file: documented as multipart/form-data. The reader takes either encoding. */
  multipart?: boolean;
  maxBytes: number;
  maxFields?: number;
  /** Fields for the OpenAPI request body. */
  fields: Record<string, unknown>;
  required: readonly string[];
  says: { tooLarge: string; tooManyFields?: string; notAForm: string; unreadable: string };
}

export interface PageContext {
  /** The workspace the page's link belongs to (rows with `link`); undefined for static files. */
  workspace: Workspace | undefined;
  /** The id of the record the link names (rows with `link`). */
  linked: string | undefined;
  params: Record<string, string>;
  query: Record<string, unknown>;
  cookies: Record<string, string>;
  /** The browser asks for a frame's document (Sec-Fetch-Dest iframe or frame): the page is embedded. */
  framed: boolean;
  /** Reads the form by the row's rules, once; an unreadable form throws a refusal for `refused`. */
  form(): Promise<PageForm>;
  info: RequestInfo;
}

/** A row with a link: `workspace` is the one the link was found in, `linked` the id of the record it names. */
export interface LinkContext extends PageContext {
  workspace: Workspace;
  linked: string;
}

/** Where a link was found: its workspace and the id of the record it names (read afresh by id once due timers ran). */
interface LinkTarget {
  workspace: Workspace;
  id: string;
}

/** How the pages of one kind of link are found (once per request), and what an unknown link answers. */
export interface PageLink {
  find(workspaces: readonly Workspace[], params: Record<string, string>): LinkTarget | undefined;
  notFound(): PageReply;
}

/** One answer of the row's OpenAPI operation; HTML unless `media` says otherwise. */
export interface PageResponse {
  description: string;
  media?: string;
  /** A redirect's Location. */
  location?: boolean;
  /** In the error envelope (JSON), as the rest of /_emulator answers. */
  envelope?: boolean;
}

export interface PageRoute extends RowBase {
  kind: 'page';
  method: PageMethod;
  /** Query parameters, for the OpenAPI document only (pages read what they need themselves). */
  query?: Record<string, { description: string }>;
  /** Descriptions of path parameters. */
  params?: Record<string, string>;
  responses: Record<number, PageResponse>;
  /** Part of the browser UI under /_emulator (the inspector, the API explorer): off with --no-ui, and its errors stay in the envelope like the rest of /_emulator. */
  inspector?: boolean;
  link?: PageLink;
  form?: FormRules;
  handle(ctx: PageContext): PageReply | Promise<PageReply>;
  /** The page for a refusal (an ApiError from `handle` or the form reader); else the plain error page. */
  refused?(err: ApiError, ctx: PageContext): PageReply;
}

/** A row with a link, its handler seeing the workspace the link was found in. */
export interface LinkPageRoute extends Omit<PageRoute, 'link' | 'handle' | 'refused'> {
  link: PageLink;
  handle(ctx: LinkContext): PageReply | Promise<PageReply>;
  refused?(err: ApiError, ctx: LinkContext): PageReply;
}

/** Sound because the mount calls `handle` only once `link.find` gave a workspace. */
export function linkPage(row: LinkPageRoute): PageRoute {
  return {
    ...row,
    handle: (ctx) => row.handle(ctx as LinkContext),
    ...(row.refused ? { refused: (err: ApiError, ctx: PageContext) => row.refused!(err, ctx as LinkContext) } : {}),
  };
}
