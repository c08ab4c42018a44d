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
 * posts' own vectors leave it out (an empty tsquery drops out of `&&`).
 */
function prefixTerm(term: string): Sql {
  const text = `'${term}':*`;
  return sql`(case when numnode(to_tsquery('cubes_search', ${text})) = 0 then ''::tsquery
                   else to_tsquery('cubes_search', ${text}) || to_tsquery('simple', ${text}) end)`;
}

/** The tsquery of `websearch` (websearch_to_tsquery text, '' when none) and every term of `terms`. */
export function matchQuery(websearch: string, terms: readonly string[]): Sql {
  const prefixes = terms.length > 0 ? join(terms.map(prefixTerm), ' && ') : sql`''::tsquery`;
  return sql`(websearch_to_tsquery('cubes_search', ${websearch}) && ${prefixes})`;
}
