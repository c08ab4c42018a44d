/**
 * Typo tolerance: a term of 3+ characters that starts no word of the vocabulary (search_words) is
 * replaced by the closest word, found among its trigram nearest neighbours within an edit
 * distance of 1 (2 from 5 characters). The rule is one SQL expression, run for all terms at once
 * by search.repository.ts; this module also turns the corrected terms into the query texts every
 * search statement binds.
 */

import { raw, type Sql } from '../../sql.js';
import { MAX_WORD_LENGTH, type ParsedQuery } from './search.query.js';

/**
 * The corrected form of the lower-cased, unaccented term `t.term` (collated "C", as the
 * vocabulary's index), or null when it needs none: too short, a number, or the start of a word
 * already. No parameter.
 */
export const CORRECTION: Sql = raw(`case
              when char_length(t.term) < 3 or t.term ~ '^[0-9]+$' then null
              when exists (
                select 1 from search_words w
                 where w.word >= t.term and w.word < t.term || chr(1114111)
              ) then null
              else (
                select c.word from (
                  select w.word from search_words w order by w.word <-> t.term limit 8
                ) c
                where levenshtein(c.word, t.term) <= case when char_length(t.term) >= 5 then 2 else 1 end
                order by levenshtein(c.word, t.term), similarity(c.word, t.term) desc, c.word
                limit 1
              )
            end`);

/** A query as every search statement binds it: the tsquery texts, and what trigrams compare names with. */
export interface QueryText {
  /** websearch_to_tsquery text, and the terms to prefix-match (search.sql.ts) */
  q: [string, string[]];
  fuzzy: string;
}

/** The query texts of `parsed` once its terms are corrected (`corrected`, one per term, in order). */
export function queryTextOf(parsed: ParsedQuery, corrected: readonly string[]): QueryText {
  const terms = corrected.map((t) => t.slice(0, MAX_WORD_LENGTH));
  // What trigram similarity compares names and titles with: the words as corrected, joined.
  return { q: [parsed.websearch, terms], fuzzy: terms.join(' ').toLowerCase() };
}
