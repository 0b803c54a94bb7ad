/**
 * The CodeMirror 6 side of the inline diagnostics: findings as lint marks (source `tapemagic`)
 * with their quick fixes as lint actions. Report coordinates go through model/positions only.
 */
import { trans } from '../i18n';
import { Action, Diagnostic, forEachDiagnostic, setDiagnostics } from '@codemirror/lint';
import { ChangeDesc, ChangeSet, Extension, StateEffect, StateField } from '@codemirror/state';
import { EditorView, PluginValue, ViewPlugin, ViewUpdate } from '@codemirror/view';
import { editsToChanges, locationToRange, TextChange } from '../model/positions';
import { plainText } from '../model/text';
import { Finding, Severity } from '../model/types';
import { h, richText } from '../view/dom';
import { IPlacedFinding, ITapemagicReports } from '../tokens';

/** CM6 severities for report severities (jupyterlab-lsp's SeverityMap idea). */
export const SEVERITY_MAP: Record<Severity, Diagnostic['severity']> = {
  error: 'error',
  warning: 'warning',
  info: 'info'
};

/** The user event of the tooltip's quick fix, which updates the marks itself. */
const FIX_USER_EVENT = 'input.tapemagic.fix';

/** Marks the document as the one the diagnostics were computed on. */
const anchorEffect = StateEffect.define<null>();

/** The changes made to the document since the diagnostics were placed. */
const sinceAnchor = StateField.define<ChangeDesc>({
  create: state => ChangeSet.empty(state.doc.length).desc,
  update(value, tr) {
    if (tr.effects.some(e => e.is(anchorEffect))) {
      return ChangeSet.empty(tr.state.doc.length).desc;
    }
    return tr.docChanged ? value.composeDesc(tr.changes.desc) : value;
  }
});

function fixAction(
  reports: ITapemagicReports,
  cellId: string,
  placed: IPlacedFinding,
  changes: TextChange[]
): Action {
  const f = placed.finding;
  return {
    // A plain string for CodeMirror (no backticks); the tooltip shows it with code spans.
    name: actionLabel(f),
    markClass: ACTION_CLASS,
    apply(view: EditorView) {
      const since = view.state.field(sinceAnchor, false);
      if (!since || changes.some(c => since.touchesRange(c.from, c.to))) {
        return; // the text this fix was made for has changed: re-run the cell
      }
      const mapped = changes.map(c => ({ from: since.mapPos(c.from, 1), to: since.mapPos(c.to, -1), insert: c.insert }));
      const remaining: Diagnostic[] = [];
      forEachDiagnostic(view.state, (d, from, to) => {
        if ((d as TapemagicDiagnostic).findingId !== f.id) {
          remaining.push({ ...d, from, to });
        }
      });
      view.dispatch({ changes: mapped, userEvent: FIX_USER_EVENT, scrollIntoView: true });
      view.dispatch(setDiagnostics(view.state, remaining.map(d => ({ ...d, from: Math.min(d.from, view.state.doc.length), to: Math.min(d.to, view.state.doc.length) }))));
      reports.markStale(cellId);
    }
  };
}

/**
 * "Apply and re-run": the fix loop applies the fix (when the cell text at its edits is still
 * what the report saw), runs the cell with `%%gradcheck` and compares the reports.
 */
function rerunAction(reports: ITapemagicReports, placed: IPlacedFinding): Action {
  return {
    name: trans().__('Apply and re-run'),
    markClass: RERUN_CLASS,
    apply() {
      void reports.applyFix(placed.entry, placed.finding, true).then(why => {
        if (why) {
          console.warn(`tapemagic: ${why}`);
        }
      });
    }
  };
}

/** Classes of tapemagic's quick-fix buttons in the lint tooltip. */
const ACTION_CLASS = 'jp-tapemagic-fix-action';
const RERUN_CLASS = 'jp-tapemagic-fix-rerun';

/** The quick-fix button's label (the message above it says what the fix does). */
function actionLabel(f: Finding): string {
  return f.fix!.applicability === 'unsafe' ? trans().__('Apply (unsafe)') : trans().__('Apply');
}

interface TapemagicDiagnostic extends Diagnostic {
  findingId: string;
}

function fixText(f: Finding): string {
  if (!f.fix) {
    return '';
  }
  const edits = (f.fix.edits ?? []).map(e => e.text).filter(t => t.trim());
  const kind = f.fix.applicability === 'display-only' ? trans().__('Suggestion: ') : trans().__('Fix: ');
  return `${kind}${f.fix.title}${edits.length ? ` → ${edits.join(' … ')}` : ''}`;
}

/** The fix line of the hover: title, applicability, and the replacement text when there is one. */
function fixNode(f: Finding): HTMLElement {
  const fix = f.fix!;
  const edits = (fix.edits ?? []).map(e => e.text).filter(t => t.trim());
  return h(
    'div',
    { class: `jp-tapemagic-lint-fix jp-mod-${fix.applicability}` },
    fix.applicability === 'display-only' ? trans().__('Suggestion: ') : trans().__('Fix: '),
    richText(fix.title),
    fix.applicability === 'unsafe' ? trans().__(' (unsafe: review before applying)') : null,
    edits.length ? h('code', { class: 'jp-tapemagic-inline-code' }, ` → ${edits.join(' … ')}`) : null
  );
}

/** Build the diagnostics of one cell's findings against the editor's current document. */
export function buildDiagnostics(view: EditorView, reports: ITapemagicReports, cellId: string, placed: IPlacedFinding[]): Diagnostic[] {
  const doc = view.state.doc;
  const out: TapemagicDiagnostic[] = [];
  for (const p of placed) {
    const f = p.finding;
    const range = f.location ? locationToRange(doc, f.location) : null;
    if (!range) {
      continue;
    }
    const actions: Action[] = [];
    if (f.fix && f.fix.applicability !== 'display-only' && f.fix.edits?.length) {
      const changes = editsToChanges(doc, f.fix.edits);
      if (changes) {
        actions.push(fixAction(reports, cellId, p, changes), rerunAction(reports, p));
      }
    }
    out.push({
      findingId: f.id,
      from: range.from,
      to: Math.max(range.to, range.from),
      severity: SEVERITY_MAP[f.severity] ?? 'warning',
      source: 'tapemagic',
      markClass: 'jp-tapemagic-lint',
      message: plainText(`${f.rule} ${f.name}: ${f.message}${f.fix ? `\n${fixText(f)}` : ''}`),
      renderMessage: () => {
        const message = h(
          'div',
          { class: 'jp-tapemagic-lint-message' },
          h('div', {}, h('b', {}, f.rule), ` ${f.name}: `, richText(f.message)),
          f.fix ? fixNode(f) : null
        );
        return message;
      },
      actions
    });
  }
  return out;
}

class DiagnosticsPlugin implements PluginValue {
  constructor(private view: EditorView, private reports: ITapemagicReports, private cellId: string) {
    reports.changed.connect(this._schedule, this);
    this._schedule();
  }

  /** An edit that touches a mark's range drops that mark: the report no longer describes that text. */
  update(u: ViewUpdate): void {
    if (!u.docChanged || u.transactions.some(tr => tr.isUserEvent(FIX_USER_EVENT))) {
      return;
    }
    const gone = new Set<Diagnostic>();
    forEachDiagnostic(u.startState, (d, from, to) => {
      if (u.changes.touchesRange(from, to)) {
        gone.add(d);
      }
    });
    if (gone.size) {
      setTimeout(() => this._drop(gone), 0); // no dispatch inside an update
    }
  }

  private _drop(gone: ReadonlySet<Diagnostic>): void {
    if (this._destroyed) {
      return;
    }
    const remaining: Diagnostic[] = [];
    forEachDiagnostic(this.view.state, (d, from, to) => {
      if (!gone.has(d)) {
        remaining.push({ ...d, from, to });
      }
    });
    this.view.dispatch(setDiagnostics(this.view.state, remaining));
  }

  destroy(): void {
    this._destroyed = true;
    this.reports.changed.disconnect(this._schedule, this);
  }

  private _schedule(): void {
    setTimeout(() => this._sync(), 0);
  }

  private _sync(): void {
    if (this._destroyed) {
      return;
    }
    const placed = this.reports.findingsForCell(this.cellId);
    const key = [...new Set(placed.map(p => p.entry.seq))].sort().join(',');
    if (key === this._key) {
      return; // same reports: CodeMirror keeps the marks mapped through edits
    }
    this._key = key;
    if (!placed.length && !this._shown) {
      return;
    }
    const diagnostics = buildDiagnostics(this.view, this.reports, this.cellId, placed);
    this._shown = diagnostics.length > 0;
    const spec = setDiagnostics(this.view.state, diagnostics);
    this.view.dispatch({ ...spec, effects: [...asArray(spec.effects), anchorEffect.of(null)] });
  }

  private _key = '';
  private _shown = false;
  private _destroyed = false;
}

function asArray<T>(v: T | readonly T[] | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? [...v] : [v as T];
}

/** The editor extension for the cell with model id `cellId`. */
export function tapemagicDiagnostics(reports: ITapemagicReports, cellId: string): Extension {
  return [sinceAnchor, ViewPlugin.define(view => new DiagnosticsPlugin(view, reports, cellId))];
}
