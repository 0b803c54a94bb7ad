/**
 * The ONE place that converts report coordinates to editor coordinates.
 *
 * Report coordinates (DESIGN.md §3): lines are 1-based and relative to the cell as the editor
 * shows it (line 1 of a `%%gradcheck` cell is the magic line); columns are 0-based and count
 * characters (Unicode code points, as Python does). Editor coordinates: CodeMirror document
 * offsets in UTF-16 code units, or JupyterLab's `{line, column}` with a 0-based line.
 *
 * Pure: the document is anything with CodeMirror's `Text` shape (`lines`, `line(n)`).
 */
import { Edit, Location } from './types';

/** The part of CodeMirror's `Text` this module needs (1-based `line(n)`). */
export interface DocLike {
  /** Number of lines. */
  readonly lines: number;
  /** The line with 1-based number `n`: its start offset and its text. */
  line(n: number): { from: number; text: string };
}

/** A half-open range of document offsets. */
export interface OffsetRange {
  from: number;
  to: number;
}

/** A change ready for CodeMirror's `dispatch({changes})`. */
export interface TextChange extends OffsetRange {
  insert: string;
}

/** Convert a code-point column on `text` to a UTF-16 index, clamped to the line. */
export function columnToIndex(text: string, col: number): number {
  let index = 0;
  let points = 0;
  while (index < text.length && points < col) {
    const code = text.charCodeAt(index);
    index += code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? 2 : 1;
    points++;
  }
  return index;
}

/** Convert a UTF-16 index on `text` to a code-point column. */
export function indexToColumn(text: string, index: number): number {
  return Array.from(text.slice(0, Math.max(0, index))).length;
}

/** The offset of (1-based line, code-point column), or null when the line does not exist. */
export function toOffset(doc: DocLike, line: number, col: number): number | null {
  if (!Number.isInteger(line) || line < 1 || line > doc.lines) {
    return null;
  }
  const l = doc.line(line);
  return l.from + columnToIndex(l.text, Math.max(0, col));
}

/**
 * The document range a finding's location covers, or null when it cannot be placed.
 *
 * A missing column means the whole line (from its first non-blank character). When the
 * location carries `source_line` and the document's line differs, the report no longer
 * describes this text and the finding is not placed.
 */
export function locationToRange(doc: DocLike, loc: Location): OffsetRange | null {
  if (loc.line < 1 || loc.line > doc.lines) {
    return null;
  }
  const first = doc.line(loc.line);
  if (loc.source_line && loc.source_line.trimEnd() !== first.text.trimEnd()) {
    return null;
  }
  const endLine = Math.min(Math.max(loc.end_line ?? loc.line, loc.line), doc.lines);
  const last = doc.line(endLine);
  const lead = first.text.length - first.text.trimStart().length;
  const from = loc.col === null || loc.col === undefined
    ? first.from + lead
    : first.from + columnToIndex(first.text, loc.col);
  const to = loc.end_col === null || loc.end_col === undefined
    ? last.from + last.text.trimEnd().length
    : last.from + columnToIndex(last.text, loc.end_col);
  if (to < from) {
    return { from, to: first.from + first.text.length };
  }
  return { from, to };
}

/** The change one quick-fix edit makes, or null when its lines are not in the document. */
export function editToChange(doc: DocLike, edit: Edit): TextChange | null {
  const from = toOffset(doc, edit.line, edit.col);
  const to = toOffset(doc, edit.end_line, edit.end_col);
  if (from === null || to === null || to < from) {
    return null;
  }
  return { from, to, insert: edit.text };
}

/** All changes of a fix, sorted; null if any edit cannot be placed or two edits overlap. */
export function editsToChanges(doc: DocLike, edits: readonly Edit[]): TextChange[] | null {
  const changes: TextChange[] = [];
  for (const e of edits) {
    const c = editToChange(doc, e);
    if (!c) {
      return null;
    }
    changes.push(c);
  }
  changes.sort((a, b) => a.from - b.from);
  for (let i = 1; i < changes.length; i++) {
    if (changes[i].from < changes[i - 1].to) {
      return null;
    }
  }
  return changes;
}

/**
 * JupyterLab's editor position (0-based line, UTF-16 column) for a location's start, given the
 * text of that line when it is known.
 */
export function toEditorPosition(
  loc: Pick<Location, 'line' | 'col'>,
  lineText?: string
): { line: number; column: number } {
  const col = loc.col ?? 0;
  return {
    line: Math.max(0, loc.line - 1),
    column: lineText === undefined ? col : columnToIndex(lineText, col)
  };
}
