/**
 * The tsquery of a search, as post search (search.repository.ts) and chat search
 * (cubey-chats.repository.ts) match with it: the phrases and exclusions through
 * websearch_to_tsquery, and every plain term prefix-matched.
 *
 * A term is matched two ways, either of which will do. Stemmed (`cubes_search`): "happy" finds
 * "happy" and "happiness", whose stem is "happi". And as typed (`simple`): the stemmer changes a
 * word it takes for whole, so the beginning of a longer word would not match its own start:
 * "zebrafishy" becomes "zebrafishi", which starts no lexeme of "zebrafishy42" (kept whole, a word
 * with digits), and "babys" becomes "babi", which "babysitting" ("babysit") does not start with.
 * Terms hold letters and digits only (search.query.ts), so they are safe inside the quotes.
 */
import { join, type Sql, sql } from '../../sql.js';

/**
 * One term, prefix-matched stemmed or as typed; a stop word ("the") is no term at all, as the
 * posts' own vectors leave it out (an empty tsquery drops out of `&&`). The typed form is added
 * only where the stemmer cut more than an ending: a typed word that starts with its stem
 * ("festival", "festiv") matches nothing its stem does not, and a second prefix scan of the index
 * doubled the cost of a search the answer cache has not kept (bench:search, 23 → 13 req/s).
 */
function prefixTerm(term: string): Sql {
  const text = `'${term}':*`;
  return sql`(select case when numnode(t.stemmed) = 0 then ''::tsquery
                          when starts_with(t.typed, t.stem) then t.stemmed
                          else t.stemmed || to_tsquery('simple', ${text}) end
                from (select to_tsquery('cubes_search', ${text}) as stemmed,
                             (tsvector_to_array(to_tsvector('cubes_search', ${term})))[1] as stem,
                             (tsvector_to_array(to_tsvector('simple', ${term})))[1] as typed) t)`;
}

/**
 * The tsquery of `websearch` (websearch_to_tsquery text, '' when none) and every term of `terms`.
 *
 * A scalar subquery, so it is built once per statement (an InitPlan). The statements run prepared
 * with generic plans (prepared.ts), where an expression of parameters is not folded into a
 * constant: written inline, these to_tsquery calls ran again for every row a filter, the ranking
 * and the headline saw (5,000 rows in search's newest-posts window).
 */
export function matchQuery(websearch: string, terms: readonly string[]): Sql {
  const prefixes = terms.length > 0 ? join(terms.map(prefixTerm), ' && ') : sql`''::tsquery`;
  return sql`(select websearch_to_tsquery('cubes_search', ${websearch}) && ${prefixes})`;
}
