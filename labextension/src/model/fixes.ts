/**
 * The fix loop's decisions, pure and DOM-free: may a finding's fix be applied to the cell as it
 * is now, and what did applying it and re-running the cell change for the weights it named.
 *
 * No fix logic lives here: the edits are the kernel's (report coordinates, converted by
 * model/positions). This module only checks that the text they were made for is still there.
 */
import { DocLike, editsToChanges, TextChange } from './positions';
import { Finding, Fix, Report } from './types';

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

/**
 * One weight's verdict before and after (`absent`: the report does not name the weight).
 * `now` is its name in the new report when the re-run rebuilt the model under new automatic
 * names (`sequential_1/dense_2/kernel` for `sequential/dense/kernel`).
 */
export interface WeightChange {
  variable: string;
  before: string;
  after: string;
  now?: string;
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
  /** How many of its weights the new report does not name at all. */
  absent: number;
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

/** A weight's name without Keras' automatic `_N` suffixes (`sequential_1/dense_2/kernel` → `sequential/dense/kernel`). */
export function baseName(variable: string): string {
  return variable
    .split('/')
    .map(part => part.replace(/_\d+$/, ''))
    .join('/');
}

/** Every source name of a report, in report order, keyed by its base name and its rank among the sources with that base name. */
function ranked(report: Report): Map<string, string> {
  const seen = new Map<string, number>();
  const out = new Map<string, string>();
  for (const call of report.gradient_calls ?? []) {
    for (const s of call.sources ?? []) {
      if ([...out.values()].includes(s.variable)) {
        continue;
      }
      const base = baseName(s.variable);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.set(`${base}#${n}`, s.variable);
    }
  }
  return out;
}

/**
 * The name `variable` of `before` has in `after`: itself when `after` names it, else the weight
 * of the same layer and variable name (base name) at the same rank, when the re-run rebuilt the
 * model under new automatic names; null when there is none.
 */
export function matchWeight(before: Report, after: Report, variable: string): string | null {
  if (verdictOf(after, variable) !== 'absent') {
    return variable;
  }
  const mine = [...ranked(before).entries()].find(([, name]) => name === variable)?.[0];
  return mine === undefined ? null : ranked(after).get(mine) ?? null;
}

/** Compare the report a fix was applied from with the report of the re-run. */
export function fixOutcome(before: Report, after: Report, f: Finding): FixOutcome {
  const changes = weightsOf(before, f).map(variable => {
    const now = matchWeight(before, after, variable);
    const change: WeightChange = {
      variable,
      before: verdictOf(before, variable),
      after: now === null ? 'absent' : verdictOf(after, now)
    };
    if (now !== null && now !== variable) {
      change.now = now;
    }
    return change;
  });
  return {
    findingId: f.id,
    connected: changes.filter(c => c.after === 'connected').length,
    total: changes.length,
    changes,
    absent: changes.filter(c => c.after === 'absent').length
  };
}

/**
 * How a card shows `fix.verified`: `yes` (a plain, green "verified") only for a fix that keeps
 * what the code computes; `changes` for one that changes values on purpose (`keeps_value`
 * false: a soft surrogate); `no`; null when no re-run checked it.
 */
export function verifiedState(fix: Fix): 'yes' | 'changes' | 'no' | null {
  if (typeof fix.verified !== 'boolean') {
    return null;
  }
  if (!fix.verified) {
    return 'no';
  }
  return fix.keeps_value === false ? 'changes' : 'yes';
}

/** The lines `first..` as they are (`before`) and as a fix leaves them (`after`). */
export interface FixPreview {
  first: number;
  before: string[];
  after: string[];
}

/**
 * The before/after of the lines the fix of `f` edits, as the HTML report shows it
 * (`tapemagic/report/diff.py`): the edits applied to the text they were made for, the report's
 * own cell when the finding is in it, else only the finding's own line. Null when the fix has
 * no edits or a line they touch is not known, or the edits cannot be placed.
 */
export function fixPreview(report: Report, f: Finding): FixPreview | null {
  const edits = f.fix?.edits ?? [];
  const loc = f.location;
  if (!edits.length || !loc) {
    return null;
  }
  const cell = report.cell;
  const own = cell.execution_count !== null && cell.execution_count !== undefined
    ? (loc.execution_count ?? cell.execution_count) === cell.execution_count
    : loc.file === cell.filename;
  const known = new Map<number, string>();
  if (own && cell.source) {
    cell.source.split('\n').forEach((text, i) => known.set(i + 1, text));
  } else if (loc.source_line) {
    known.set(loc.line, loc.source_line.replace(/\n$/, ''));
  }
  const first = Math.min(...edits.map(e => e.line));
  const last = Math.max(...edits.map(e => e.end_line));
  const before: string[] = [];
  for (let n = first; n <= last; n++) {
    const text = known.get(n);
    if (text === undefined) {
      return null;
    }
    before.push(text);
  }
  const doc: DocLike = {
    lines: last,
    line: (n: number) => {
      let from = 0;
      for (let k = first; k < n; k++) {
        from += before[k - first].length + 1;
      }
      return { from, text: n >= first ? before[n - first] : '' };
    }
  };
  const changes = editsToChanges(doc, edits);
  if (!changes) {
    return null;
  }
  let text = before.join('\n');
  for (const c of [...changes].sort((a, b) => b.from - a.from)) {
    text = text.slice(0, c.from) + c.insert + text.slice(c.to);
  }
  return { first, before, after: text.split('\n') };
}
