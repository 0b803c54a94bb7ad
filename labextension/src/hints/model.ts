/**
 * The as-you-type hints of the `tapemagic/lint` server endpoint, as the editor needs them.
 *
 * Pure and DOM-free (unit-tested under node). The answer is untrusted: `parseHints` keeps only
 * well-formed hints and drops the rest, so a bad answer shows fewer hints, never a crash.
 * Coordinates are the endpoint's: 1-based lines and 0-based code-point columns of the cell
 * text as sent; they go to editor offsets through model/positions only.
 */
import { DocLike, editsToChanges, OffsetRange, TextChange, toOffset } from '../model/positions';
import { Edit, Fix } from '../model/types';

/** How a quick fix may be applied (`safe`, `unsafe`, `display-only`). */
type Applicability = Fix['applicability'];

/** The quick fix of a hint (same shape as a report finding's fix, without `verified`). */
export interface IHintFix {
  title: string;
  applicability: Applicability;
  edits: Edit[];
}

/**
 * One hint of the `POST tapemagic/lint` answer `{"hints": [...]}`.
 *
 * `severity` is always `"hint"`: a hint says what *may* cut a gradient, from the text alone.
 */
export interface IHint {
  path: string;
  /** Rule code, e.g. `TM301`. */
  code: string;
  cause: string;
  /** Rule name (catalog slug), e.g. `host-round-trip`. */
  name: string;
  severity: 'hint';
  message: string;
  line: number;
  col: number;
  end_line: number;
  end_col: number;
  fix: IHintFix | null;
}

const APPLICABILITIES: readonly string[] = ['safe', 'unsafe', 'display-only'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

function isSpan(o: Record<string, unknown>): boolean {
  return isCount(o.line) && o.line >= 1 && isCount(o.col) && isCount(o.end_line) && isCount(o.end_col);
}

function parseEdit(v: unknown): Edit | null {
  if (!isRecord(v) || !isSpan(v) || typeof v.text !== 'string') {
    return null;
  }
  return { line: v.line as number, col: v.col as number, end_line: v.end_line as number, end_col: v.end_col as number, text: v.text };
}

function parseFix(v: unknown): IHintFix | null | undefined {
  if (v === null || v === undefined) {
    return null;
  }
  if (!isRecord(v) || typeof v.title !== 'string' || typeof v.applicability !== 'string') {
    return undefined;
  }
  if (!APPLICABILITIES.includes(v.applicability) || !Array.isArray(v.edits)) {
    return undefined;
  }
  const edits = v.edits.map(parseEdit);
  if (edits.some(e => e === null)) {
    return undefined;
  }
  return { title: v.title, applicability: v.applicability as Applicability, edits: edits as Edit[] };
}

function parseHint(v: unknown): IHint | null {
  if (!isRecord(v) || !isSpan(v)) {
    return null;
  }
  const strings = ['path', 'code', 'cause', 'name', 'message'] as const;
  if (strings.some(k => typeof v[k] !== 'string') || v.severity !== 'hint') {
    return null;
  }
  const fix = parseFix(v.fix);
  if (fix === undefined) {
    return null; // a malformed fix: the hint would offer something it cannot do
  }
  return {
    path: v.path as string,
    code: v.code as string,
    cause: v.cause as string,
    name: v.name as string,
    severity: 'hint',
    message: v.message as string,
    line: v.line as number,
    col: v.col as number,
    end_line: v.end_line as number,
    end_col: v.end_col as number,
    fix
  };
}

/** The well-formed hints of an endpoint answer (anything else gives `[]`). */
export function parseHints(answer: unknown): IHint[] {
  if (!isRecord(answer) || !Array.isArray(answer.hints)) {
    return [];
  }
  return answer.hints.map(parseHint).filter((x): x is IHint => x !== null);
}

/** The document range a hint covers, or null when it is not inside `doc`. */
export function hintRange(doc: DocLike, hint: IHint): OffsetRange | null {
  const from = toOffset(doc, hint.line, hint.col);
  const to = toOffset(doc, hint.end_line, hint.end_col);
  if (from === null || to === null || to < from) {
    return null;
  }
  return { from, to };
}

/** The changes of a hint's quick fix, or null when it has none that can be applied here. */
export function hintChanges(doc: DocLike, hint: IHint): TextChange[] | null {
  const fix = hint.fix;
  if (!fix || fix.applicability === 'display-only' || !fix.edits.length) {
    return null;
  }
  return editsToChanges(doc, fix.edits);
}
