// The CLI's one table printer: a header line and one line per row, each column as wide as its widest cell
// (the header's included, at least `min`), numbers right-aligned, text left-aligned, columns two spaces
// apart; a left-aligned last column is not padded. A cell's width is its length in UTF-16
// code units, as the CLI has always measured it: a tool named in CJK characters or with an emoji is counted
// narrower than a terminal draws it, and its row is then pushed right by as much.

export interface Column {
  header: string;
  /** 'right' for numbers (default 'left'). */
  align?: 'left' | 'right';
  /** The column's least width, when it should not shrink to its content (a rank column keeps room for 3 digits). */
  min?: number;
}

export interface TableOptions {
  /** Written before every line (default none). */
  indent?: string;
  /** A line of dashes under the header, one run per column as wide as it. */
  rule?: boolean;
}

const GAP = '  ';

/** The table's lines: the header, the rule when asked for, then one line per row (cells in column order). */
export function tableLines(columns: readonly Column[], rows: readonly (readonly string[])[], options: TableOptions = {}): string[] {
  const widths = columns.map((c, i) => Math.max(c.min ?? 0, c.header.length, ...rows.map((r) => (r[i] ?? '').length)));
  const last = columns.length - 1;
  const line = (cells: readonly string[]): string =>
    (options.indent ?? '') +
    columns
      .map((c, i) => {
        const cell = cells[i] ?? '';
        if (c.align === 'right') return cell.padStart(widths[i]!);
        return i === last ? cell : cell.padEnd(widths[i]!);
      })
      .join(GAP);
  return [line(columns.map((c) => c.header)), ...(options.rule ? [line(widths.map((w) => '-'.repeat(w)))] : []), ...rows.map(line)];
}
