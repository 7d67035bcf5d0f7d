/**
 * The toy stream's route (where a real stream's is in `src/sandbox/routes/`): a website's notes
 * on a loopback server, from `truth` (none for a website it lacks), those published at or after `updated_since`, one page.
 */
import type { Responder } from '../../client/support/scripted-server.ts';
import { json } from '../../client/support/scripted-server.ts';

export interface NoteRecord {
  readonly id: string;
  readonly title: string;
  readonly available_at: string;
  readonly [field: string]: unknown;
}

/** Answers `GET /public/v2/websites/{website_id}/notes` from `truth` (website id -> its notes). */
export function notesRoute(truth: ReadonlyMap<string, readonly NoteRecord[]>): Responder {
  let requests = 0;
  return (res, req) => {
    const url = new URL(req.url, 'http://loopback');
    const website = /^\/public\/v2\/websites\/([^/]+)\/notes$/.exec(url.pathname)?.[1] ?? '';
    const since = url.searchParams.get('updated_since');
    const data = (truth.get(website) ?? []).filter((note) => since === null || note.available_at >= since);
    json(200, { data, meta: { request_id: `req_${++requests}`, has_more: false, next_cursor: null } })(res, req);
  };
}
