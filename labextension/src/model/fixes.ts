/**
 * The fix loop's decisions, pure and DOM-free: may a finding's fix be applied to the cell as it
 * is now, and what did applying it and re-running the cell change for the weights it named.
 *
 * No fix logic lives here: the edits are the kernel's (report coordinates, converted by
 * model/positions). This module only checks that the text they were made for is still there.
 */
import { DocLike, editsToChanges, TextChange } from './positions';
import { Finding, Report } from './types';

/** Why a fix cannot be applied now. */
export type StaleReason =
  /** The lines the edits touch differ from the text the report was made on. */
  | 'changed'
  /** An edit's lines are not in the cell any more, or two edits overlap. */
  | 'unplaceable'
  /** The finding's cell cannot be found in the notebook. */
  | 'no-cell';

/** Whether a finding's fix can be applied to its cell now. */
export type FixState =
  /** No button: the fix has no edits, or is display-only. */
  | { kind: 'none' }
  | { kind: 'ready'; changes: TextChange[]; unsafe: boolean }
  | { kind: 'stale'; reason: StaleReason; unsafe: boolean };

/** Does the finding carry a fix with edits that may be applied (safe or unsafe)? */
export function canApply(f: Finding): boolean {
  return !!f.fix && f.fix.applicability !== 'display-only' && (f.fix.edits?.length ?? 0) > 0;
}

/** A {@link DocLike} over a string (lines split at `\n`), for cell text outside an editor. */
export function textDoc(source: string): DocLike {
  const lines = source.split('\n');
  const starts: number[] = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += l.length + 1;
  }
  return { lines: lines.length, line: (n: number) => ({ from: starts[n - 1], text: lines[n - 1] }) };
}

/** The 1-based lines `first..last` of `doc`, or null when one is missing. */
function linesOf(doc: DocLike, first: number, last: number): string[] | null {
  if (first < 1 || last > doc.lines || last < first) {
    return null;
  }
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    out.push(doc.line(n).text.trimEnd());
  }
  return out;
}

/**
 * May the fix of `f` be applied to `current`, the cell's text now?
 *
 * @param f - the finding.
 * @param current - the text of the cell the finding is in, as the editor holds it now.
 * @param madeOn - the text of that cell when the report was made (the report's `cell.source`
 *   when the finding is in the report's own cell), or null when the report does not carry it
 *   (a finding in an earlier cell): then the finding's `source_line` is the reference, and
 *   only edits on the finding's own line can be checked.
 * @returns `ready` with the changes (editor offsets in `current`) when every line an edit
 *   touches is as it was; `stale` with the reason otherwise; `none` when there is nothing to
 *   apply.
 */
export function fixState(f: Finding, current: string, madeOn: string | null): FixState {
  if (!canApply(f)) {
    return { kind: 'none' };
  }
  const edits = f.fix!.edits;
  const unsafe = f.fix!.applicability === 'unsafe';
  const now = textDoc(current);
  const loc = f.location;
  for (const e of edits) {
    const have = linesOf(now, e.line, e.end_line);
    if (!have) {
      return { kind: 'stale', reason: 'unplaceable', unsafe };
    }
    let want: string[] | null;
    if (madeOn !== null) {
      want = linesOf(textDoc(madeOn), e.line, e.end_line);
    } else if (loc?.source_line && e.line === loc.line && e.end_line === loc.line) {
      want = [loc.source_line.trimEnd()];
    } else {
      want = null;
    }
    if (!want || want.join('\n') !== have.join('\n')) {
      return { kind: 'stale', reason: 'changed', unsafe };
    }
  }
  const changes = editsToChanges(now, edits);
  return changes ? { kind: 'ready', changes, unsafe } : { kind: 'stale', reason: 'unplaceable', unsafe };
}

/** The line a re-run puts on top of a cell that lacks it. */
export const MAGIC_LINE = '%%gradcheck';

/** Does the cell text start with the `%%gradcheck` cell magic? */
export function hasMagic(source: string): boolean {
  return /^\s*%%gradcheck(\s|$)/.test(source);
}

/** One weight's verdict before and after (`absent`: the report does not name the weight). */
export interface WeightChange {
  variable: string;
  before: string;
  after: string;
}

/** What applying a finding's fix and re-running the cell changed for the weights it named. */
export interface FixOutcome {
  /** The finding that was applied (from the earlier report). */
  findingId: string;
  /** How many of its weights are `connected` in the new report. */
  connected: number;
  /** How many weights the finding named. */
  total: number;
  /** Per weight, in the finding's order. */
  changes: WeightChange[];
}

const RANK: Record<string, number> = { connected: 0, zero: 1, unexplained: 2, severed: 3 };

/** A weight's verdict over every gradient call of a report: the worst one, or `absent`. */
export function verdictOf(report: Report, variable: string): string {
  let worst: string | null = null;
  for (const call of report.gradient_calls ?? []) {
    for (const s of call.sources ?? []) {
      if (s.variable === variable && (worst === null || (RANK[s.verdict] ?? 3) > (RANK[worst] ?? 3))) {
        worst = s.verdict;
      }
    }
  }
  return worst ?? 'absent';
}

/** The weights a finding is about: its `variables`, else the sources whose findings name it. */
export function weightsOf(report: Report, f: Finding): string[] {
  if (f.variables?.length) {
    return [...f.variables];
  }
  const out: string[] = [];
  for (const call of report.gradient_calls ?? []) {
    for (const s of call.sources ?? []) {
      if (s.finding_ids?.includes(f.id) && !out.includes(s.variable)) {
        out.push(s.variable);
      }
    }
  }
  return out;
}

/** Compare the report a fix was applied from with the report of the re-run. */
export function fixOutcome(before: Report, after: Report, f: Finding): FixOutcome {
  const changes = weightsOf(before, f).map(variable => ({
    variable,
    before: verdictOf(before, variable),
    after: verdictOf(after, variable)
  }));
  return {
    findingId: f.id,
    connected: changes.filter(c => c.after === 'connected').length,
    total: changes.length,
    changes
  };
}
