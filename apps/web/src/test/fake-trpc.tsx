/**
 * A fake /trpc endpoint for component tests: answers tRPC's batch format (superjson-encoded) by
 * procedure name. An answer can be a value, an error, or a function of the input (sync or async,
 * so a test can hold a request open). Every call is recorded with its input.
 *
 * Handlers, answers and fixtures are typed by the server's RouterInputs/RouterOutputs, so a change
 * of a procedure's name or shape fails the tests that fake it at typecheck.
 */
import type { RouterInputs, RouterOutputs } from '@cubes/api/client';
import { render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import superjson from 'superjson';
import { vi } from 'vitest';
import { AppProviders, AppRoutes } from '../app';
import { AuthProvider } from '../features/auth/auth-provider';

type RouterName = keyof RouterOutputs & string;
/** A procedure as the client names it on the wire: 'posts.feed', 'auth.session', … */
export type Procedure = { [R in RouterName]: `${R}.${keyof RouterOutputs[R] & string}` }[RouterName];
export type OutputOf<P extends Procedure> = P extends `${infer R}.${infer N}`
  ? R extends RouterName
    ? N extends keyof RouterOutputs[R]
      ? RouterOutputs[R][N]
      : never
    : never
  : never;
// A procedure without input (or with an optional one) receives undefined, which tRPC types as void.
type VoidAsUndefined<T> = T extends void ? undefined : T;
export type InputOf<P extends Procedure> = P extends `${infer R}.${infer N}`
  ? R extends keyof RouterInputs
    ? N extends keyof RouterInputs[R]
      ? VoidAsUndefined<RouterInputs[R][N]>
      : never
    : never
  : never;

export interface FakeError {
  message: string;
  code: string;
  httpStatus: number;
}
export type ErrorAnswer = { error: FakeError };
export type Answer<T> = { data: T } | ErrorAnswer;
/** What the fake answers for procedure P. */
export type AnswerOf<P extends Procedure> = Answer<OutputOf<P>>;
export type Handler<P extends Procedure> =
  | AnswerOf<P>
  | ((input: InputOf<P>) => AnswerOf<P> | Promise<AnswerOf<P>>);
export type Handlers = { [P in Procedure]?: Handler<P> };

const TRPC_ERROR_CODES: Record<string, number> = {
  UNAUTHORIZED: -32001,
  BAD_REQUEST: -32600,
  NOT_FOUND: -32004,
  CONFLICT: -32009,
  TOO_MANY_REQUESTS: -32029,
  INTERNAL_SERVER_ERROR: -32603,
};

export const unauthorized: ErrorAnswer = {
  error: { message: 'You need to be logged in', code: 'UNAUTHORIZED', httpStatus: 401 },
};
export const serverError: ErrorAnswer = {
  error: { message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 },
};

export interface Call<P extends Procedure = Procedure> {
  procedure: P;
  input: InputOf<P>;
}

function inputsOf(url: URL, body: unknown, count: number): unknown[] {
  const raw = body ?? JSON.parse(url.searchParams.get('input') ?? '{}');
  const record = (raw ?? {}) as Record<string, { json: unknown; meta?: unknown } | undefined>;
  return Array.from({ length: count }, (_, i) => {
    const entry = record[String(i)];
    return entry ? superjson.deserialize(entry as Parameters<typeof superjson.deserialize>[0]) : undefined;
  });
}

export function fakeTrpc(handlers: Handlers) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const procedures = url.pathname.replace(/^.*\/trpc\//, '').split(',');
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const inputs = inputsOf(url, body, procedures.length);
    const answers = await Promise.all(
      procedures.map(async (procedure, i) => {
        // The wire names any string; the handler table is typed, so look it up as untyped here.
        calls.push({ procedure, input: inputs[i] } as Call);
        const handler = (handlers as Record<string, Handler<Procedure> | undefined>)[procedure];
        if (!handler)
          return { error: { message: 'Not found', code: 'NOT_FOUND', httpStatus: 404 } } as ErrorAnswer;
        return typeof handler === 'function' ? handler(inputs[i] as never) : handler;
      }),
    );
    const bodies = answers.map((answer, i) =>
      'data' in answer
        ? { result: { data: superjson.serialize(answer.data) } }
        : {
            error: superjson.serialize({
              message: answer.error.message,
              code: TRPC_ERROR_CODES[answer.error.code] ?? -32603,
              data: { code: answer.error.code, httpStatus: answer.error.httpStatus, path: procedures[i] },
            }),
          },
    );
    const errors = answers.filter((a): a is ErrorAnswer => 'error' in a);
    const status =
      errors.length === 0 ? 200 : errors.length === answers.length ? errors[0]!.error.httpStatus : 207;
    return new Response(JSON.stringify(bodies), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetch: fetchMock,
    calls,
    called: <P extends Procedure>(procedure: P) =>
      calls.filter((c): c is Call<P> => c.procedure === procedure),
  };
}

/** The whole app (providers, session, routes) at `path`. */
export function renderApp(path: string) {
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        <AuthProvider>
          <AppRoutes />
        </AuthProvider>
      </MemoryRouter>
    </AppProviders>,
  );
}

/**
 * Waits until the header shows the session's answer (the account menu, or Login). Until then the
 * app does not know who reads, and a control that needs a member treats the reader as a visitor;
 * the answer reaches the page in a background render (auth-provider.tsx).
 */
export async function sessionKnown(): Promise<void> {
  await waitFor(() => {
    if (
      !screen.queryByRole('button', { name: 'Account menu' }) &&
      !screen.queryByRole('link', { name: 'Login' })
    )
      throw new Error('the session is still loading');
  });
}

/** One component inside the app's providers and a session. */
export function renderWithApp(ui: ReactNode, path = '/') {
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        <AuthProvider>{ui}</AuthProvider>
      </MemoryRouter>
    </AppProviders>,
  );
}

/** A resolvable promise, to hold a fake request open while asserting the optimistic state. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

type User = RouterOutputs['auth']['me']['user'];
type Post = RouterOutputs['posts']['feed']['items'][number];

export const alice: User = {
  id: '3f2c0d8e-0000-4000-8000-000000000001',
  username: 'alice',
  displayName: 'Alice Cube',
  email: 'alice@example.com',
  bio: null,
  avatarUrl: null,
  headerUrl: null,
  emailVisible: false,
  createdAt: '2025-01-01T00:00:00.000Z',
};

export const bob: User = {
  ...alice,
  id: '3f2c0d8e-0000-4000-8000-000000000002',
  username: 'bob',
  displayName: 'Bob Block',
  email: null,
  bio: 'Builds things out of cubes.',
};

export function makePost(overrides: Partial<Post> = {}): Post {
  return {
    id: '9a1b0c8e-0000-4000-8000-000000000010',
    userId: bob.id,
    username: 'bob',
    userDisplayName: 'Bob Block',
    userAvatarUrl: null,
    content: 'Hello cubes',
    contentWarning: null,
    imageUrl: null,
    images: [],
    likesCount: 0,
    commentsCount: 0,
    repostsCount: 0,
    isLiked: false,
    isReposted: false,
    repostedBy: null,
    pinned: false,
    quotePostId: null,
    quote: null,
    isBookmarked: false,
    createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    editedAt: null,
    mentions: [],
    tags: [],
    linkCard: null,
    poll: null,
    ...overrides,
  };
}
