/** The poll of a post answer (poll.schema.ts's `pollSchema`), from the `poll` column (poll.sql.ts). */
import type { PollDto } from './poll.schema.js';

/** The `poll` column as the database returns it. */
export interface PollRow {
  options: string[];
  votesCounts: number[];
  votersCount: number;
  multiple: boolean;
  expiresAt: string;
  expired: boolean;
  isAuthor: boolean;
  ownChoices: number[] | null;
}

/** Whether the viewer may see the counts: the author always, voters, and everyone once it ended. */
export function resultsShown(row: Pick<PollRow, 'expired' | 'isAuthor' | 'ownChoices'>): boolean {
  return row.expired || row.isAuthor || row.ownChoices !== null;
}

export function toPollDto(row: PollRow | null | undefined): PollDto | null {
  if (!row) return null;
  const shown = resultsShown(row);
  return {
    options: row.options.map((text, i) => ({ text, votesCount: shown ? (row.votesCounts[i] ?? 0) : null })),
    votersCount: row.votersCount,
    expiresAt: new Date(row.expiresAt).toISOString(),
    multiple: row.multiple,
    ownChoices: row.ownChoices ?? [],
    expired: row.expired,
  };
}
