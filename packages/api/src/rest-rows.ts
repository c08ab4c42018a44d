/**
 * The shape of a REST row: a method and path mapped to one procedure of the app router, with where
 * its input comes from and how its answer is shaped; its answer's schema is the procedure's
 * `.output()`. Each module lists its rows beside its router (`modules/<domain>/<name>.rest.ts`,
 * typed `RestRowOf<'<domain>'>`), rest.ts collects them, and the server's REST adapter serves them
 * and describes them in the OpenAPI document (apps/server/src/rest/). Typed against the router: a
 * row names an existing procedure, and its params, query and body name fields of its input.
 */
import type { AnyProcedure, TRPCRouterRecord as RouterRecord } from '@trpc/server';
import type { AppRouter, RouterInputs, RouterOutputs } from './root.js';

type ProcedurePaths<R, Prefix extends string = ''> = {
  [K in keyof R & string]: R[K] extends AnyProcedure
    ? `${Prefix}${K}`
    : R[K] extends RouterRecord
      ? ProcedurePaths<R[K], `${Prefix}${K}.`>
      : never;
}[keyof R & string];

/** Every procedure of the app router, as a dotted path ('auth.login'). */
export type ProcedurePath = ProcedurePaths<AppRouter['_def']['record']>;

type At<T, P extends string> = P extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? At<T[Head], Rest>
    : never
  : P extends keyof T
    ? T[P]
    : never;

/** The field names of what a client sends to the procedure at P (an input may also be left out). */
type Fields<T> = T extends object ? keyof T & string : never;
type InputField<P extends ProcedurePath> = Fields<At<RouterInputs, P>>;
type Output<P extends ProcedurePath> = At<RouterOutputs, P>;

/** Error statuses a procedure gives beyond those the row's shape implies (apps/server/src/rest/openapi.ts). */
export type ProcedureErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 502;

interface RouteBase<P extends ProcedurePath> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify path, with :params */
  path: string;
  procedure: P;
  /** One line for the OpenAPI document. */
  summary: string;
  /** Path parameter → input field: `{ id: 'postId' }`. */
  params?: Readonly<Record<string, InputField<P>>>;
  /** Query parameters copied into the input by name; numbers where the input schema wants a number. */
  query?: readonly InputField<P>[];
  /** The JSON body: `true` is the whole body as the input (path and query fields added); a list picks fields. */
  body?: true | readonly InputField<P>[];
  /** Success status; default 200. */
  status?: number;
  /** The procedure needs a logged-in session: 401 without one. */
  auth?: true;
  /** What the procedure itself can answer that the row's shape does not imply (409 on a taken name…). */
  errors?: readonly ProcedureErrorStatus[];
}

type RouteOf<P extends ProcedurePath> = RouteBase<P> &
  (
    | {
        /**
         * The result is a page. `true`: its items are the body; `'object'`: all but its
         * nextCursor is the body. The cursor goes in X-Next-Cursor.
         */
        paged: Output<P> extends { nextCursor: string | null } ? true | 'object' : never;
        unavailableUnless?: never;
      }
    | {
        paged?: never;
        /** A boolean field of the result; when it is false the status is 503 (same body). */
        unavailableUnless?: {
          [K in keyof Output<P>]: Output<P>[K] extends boolean ? K : never;
        }[keyof Output<P>];
      }
  );

/** One row of the REST table, for any procedure of the app router. */
export type RestRow = { [P in ProcedurePath]: RouteOf<P> }[ProcedurePath];

/** A domain's procedures: 'posts.feed', 'posts.like'… for 'posts'. */
type DomainPath<D extends string> = Extract<ProcedurePath, `${D}.${string}`>;

/** One row of a domain's REST table: it names one of that domain's procedures. */
export type RestRowOf<D extends keyof AppRouter['_def']['record'] & string> = {
  [P in DomainPath<D>]: RouteOf<P>;
}[DomainPath<D>];
