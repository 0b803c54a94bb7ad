/**
 * Sharing CodeMirror's one diagnostic set between the hints and the other sources.
 *
 * DOM-free (an `EditorState` is enough, so it is unit-tested under node). `@codemirror/lint`
 * keeps a single set per editor that `setDiagnostics` replaces as a whole; the hints therefore
 * rebuild the set from the other sources' current diagnostics plus their own.
 */
import { Diagnostic, forEachDiagnostic, setDiagnostics } from '@codemirror/lint';
import { EditorState, StateEffect, TransactionSpec } from '@codemirror/state';
import { OffsetRange } from '../model/positions';

/** The `source` of every hint diagnostic. */
export const HINT_SOURCE = 'tapemagic-hint';

/**
 * The `source` of the runtime findings' diagnostics (diagnostics/extension.ts): where one is
 * shown, the run has spoken about that text, and no hint is drawn over it.
 */
export const RUNTIME_SOURCE = 'tapemagic';

/** How many hint diagnostics `state` holds. */
export function countHints(state: EditorState): number {
  let n = 0;
  forEachDiagnostic(state, d => {
    n += d.source === HINT_SOURCE ? 1 : 0;
  });
  return n;
}

/** Where the runtime marks are now (mapped through the edits since they were placed). */
export function runtimeRanges(state: EditorState): OffsetRange[] {
  const out: OffsetRange[] = [];
  forEachDiagnostic(state, (d, from, to) => {
    if (d.source === RUNTIME_SOURCE) {
      out.push({ from, to });
    }
  });
  return out;
}

/** Whether two ranges share at least one character (or start at the same point). */
export function overlaps(a: OffsetRange, b: OffsetRange): boolean {
  return a.from === b.from || (a.from < b.to && b.from < a.to);
}

/**
 * The transaction that makes `hints` the hint diagnostics of `state`, keeping every other
 * source's diagnostics where they are now, with `extra` effects added.
 */
export function replaceHints(
  state: EditorState,
  hints: readonly Diagnostic[],
  extra: readonly StateEffect<unknown>[] = []
): TransactionSpec {
  const kept: Diagnostic[] = [];
  forEachDiagnostic(state, (d, from, to) => {
    if (d.source !== HINT_SOURCE) {
      // The same object where it did not move: other sources recognise theirs by identity.
      kept.push(d.from === from && d.to === to ? d : { ...d, from, to });
    }
  });
  const spec = setDiagnostics(state, [...kept, ...hints]);
  const effects = spec.effects === undefined ? [] : Array.isArray(spec.effects) ? spec.effects : [spec.effects];
  return { effects: [...effects, ...extra] };
}
