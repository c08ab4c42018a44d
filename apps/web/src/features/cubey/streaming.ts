/**
 * An answer still being written, made to render in the shape it will end in. A GFM table is a
 * table only once its delimiter row (`| --- | --- |`) is there: until then its header would show
 * as a paragraph of pipes and then jump into a table. So when the last block of the text starts a
 * table whose delimiter row is missing or half-written, a whole one is put in its place (the
 * alignments typed so far kept). An open code fence needs nothing: CommonMark runs it to the end of
 * the text, so it is a code block that grows.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const DELIMITER_CELL = /^:?-+:?$/;
/** A delimiter row, whole or still being typed: pipes, dashes, colons and spaces only. */
const DELIMITER_LIKE = /^\s*\|?[\s:|-]*$/;

/** Whether the text ends inside an open code fence. */
function endsInFence(lines: readonly string[]): boolean {
  let open: string | null = null;
  for (const line of lines) {
    const fence = FENCE.exec(line)?.[1];
    if (!fence) continue;
    if (open === null) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = null;
  }
  return open !== null;
}

/** The cells of a table row: between its pipes, escaped pipes kept. */
export function rowCells(line: string): string[] {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  return text.split(/(?<!\\)\|/).map((cell) => cell.trim());
}

export function completeStreaming(source: string): string {
  const lines = source.split('\n');
  if (endsInFence(lines)) return source;
  // The last block: the lines after the last blank one.
  let start = lines.length;
  while (start > 0 && lines[start - 1]!.trim() !== '') start -= 1;
  const header = lines.findIndex((line, i) => i >= start && line.trimStart().startsWith('|'));
  if (header < 0) return source;
  const count = rowCells(lines[header]!).length;
  const next = lines[header + 1];
  if (next !== undefined) {
    if (!DELIMITER_LIKE.test(next) || next.trim() === '') return source;
    const typed = rowCells(next);
    if (typed.length === count && typed.every((cell) => DELIMITER_CELL.test(cell))) return source;
    const whole = Array.from({ length: count }, (_, i) =>
      i < typed.length - 1 && DELIMITER_CELL.test(typed[i]!) ? typed[i]! : '---',
    );
    return [...lines.slice(0, header + 1), `| ${whole.join(' | ')} |`, ...lines.slice(header + 2)].join('\n');
  }
  return [...lines, `| ${Array.from({ length: count }, () => '---').join(' | ')} |`].join('\n');
}
