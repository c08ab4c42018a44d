/**
 * The polls REST rows: each maps a method and path under /api to one of this module's procedures
 * (poll.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them; docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const pollsRest = [
  {
    method: 'POST',
    path: '/api/posts/:id/poll/votes',
    procedure: 'polls.vote',
    summary:
      'Vote in a post’s poll, once: `choices` are option indexes (one unless the poll is multiple-choice); 409 after your vote, 410 once the poll ended, 404 when there is no poll you may see',
    auth: true,
    params: { id: 'postId' },
    body: ['choices'],
    errors: [409, 410],
  },
] as const satisfies readonly RestRowOf<'polls'>[];
