/**
 * The fix loop: apply a finding's quick fix to its cell (one CodeMirror transaction, so Ctrl-Z
 * undoes it) and, when asked, re-run the report's cell with `%%gradcheck` and compare the new
 * report with the old one for the weights the finding named.
 */
import { Cell, CodeCell } from '@jupyterlab/cells';
import type { CodeMirrorEditor } from '@jupyterlab/codemirror';
import { ChangeSpec } from '@codemirror/state';
import { trans } from './i18n';
import { FixOutcome, fixOutcome, fixState, FixState, hasMagic, MAGIC_LINE } from './model/fixes';
import { outcomeView, setFixState, staleText } from './view/fixView';
import { NotebookPanel } from '@jupyterlab/notebook';
import { editsToChanges } from './model/positions';
import { Finding } from './model/types';
import { ICellReport, ITapemagicReports } from './tokens';

/**
 * The user event of the fix loop's transactions. Unlike the tooltip's own quick fix, it is an
 * ordinary edit for the diagnostics: the marks it touches (the applied finding's) are dropped.
 */
export const APPLY_USER_EVENT = 'input.tapemagic.apply';

/** How long a re-run may take before the loop gives up waiting for its report. */
const RERUN_TIMEOUT_MS = 10 * 60 * 1000;
/** Once the cell has run, how long its report may still take to reach the tracker. */
const AFTER_RUN_MS = 5000;

/** What the fix loop needs from the tracker beyond {@link ITapemagicReports}. */
export interface IFixHost extends ITapemagicReports {
  /** The model id of the cell a finding is shown (and fixed) in. */
  targetCellId(entry: ICellReport, finding: Finding): string;
  /** Attach the outcome of an "Apply and re-run" to the report with this arrival number. */
  setOutcome(seq: number, outcome: FixOutcome): void;
}

/**
 * Close the cell's current undo step, so an Apply is one step of its own: the cell's undo
 * manager (Yjs) merges edits less than 500 ms apart, and a Ctrl-Z after an Apply made just
 * after typing would also undo the typing. `undoManager` is on the Yjs cell model
 * (`@jupyter/ydoc` YBaseCell), not on the `ISharedCell` interface, hence the narrow type.
 */
function endUndoStep(cell: Cell): void {
  const shared = cell.model.sharedModel as { undoManager?: { stopCapturing(): void } | null };
  shared.undoManager?.stopCapturing();
}

/** Applies fixes and re-runs cells for the tracker. */
export class FixLoop {
  constructor(private readonly host: IFixHost) {}

  /** Whether the finding's fix can be applied to its cell as the cell is now. */
  state(entry: ICellReport, finding: Finding): FixState {
    const id = this.host.targetCellId(entry, finding);
    const cell = this._cell(entry, id);
    const st = fixState(finding, cell?.model.sharedModel.getSource() ?? '', id === entry.cellId ? entry.report.cell.source : null);
    return !cell && st.kind !== 'none' ? { kind: 'stale', reason: 'no-cell', unsafe: st.unsafe } : st;
  }

  /**
   * Apply the fix; with `rerun`, also run the report's cell (after the fixed cell, when that is
   * another one) and wait for its new report. Resolves to '' on success, else to why not.
   */
  async apply(entry: ICellReport, finding: Finding, rerun: boolean): Promise<string> {
    const st = this.state(entry, finding);
    if (st.kind !== 'ready') {
      return st.kind === 'stale' ? staleText(st.reason) : trans().__('This fix has no edit to apply.');
    }
    const targetId = this.host.targetCellId(entry, finding);
    const target = await this._editable(entry, targetId);
    const own = rerun ? await this._editable(entry, entry.cellId) : target;
    if (!target || !own) {
      return staleText('no-cell');
    }
    const view = (target.editor as CodeMirrorEditor).editor;
    const changes = editsToChanges(view.state.doc, finding.fix?.edits ?? []);
    if (!changes) {
      return staleText('unplaceable');
    }
    const specs: ChangeSpec[] = [...changes];
    const addMagic = rerun && !hasMagic(own.model.sharedModel.getSource());
    if (addMagic && own === target) {
      specs.push({ from: 0, insert: `${MAGIC_LINE}\n` });
    }
    endUndoStep(target);
    view.dispatch({ changes: specs, userEvent: APPLY_USER_EVENT, scrollIntoView: true });
    endUndoStep(target);
    if (addMagic && own !== target) {
      endUndoStep(own);
      (own.editor as CodeMirrorEditor).editor.dispatch({ changes: { from: 0, insert: `${MAGIC_LINE}\n` }, userEvent: APPLY_USER_EVENT });
      endUndoStep(own);
    }
    this.host.markStale(entry.cellId);
    return rerun ? this._rerun(entry, finding, target, own) : '';
  }

  /** Run the fixed cell (when it is not the report's) and the report's cell, then compare. */
  private async _rerun(entry: ICellReport, finding: Finding, target: CodeCell, own: CodeCell): Promise<string> {
    const session = entry.panel.sessionContext;
    const next = this._nextReport(entry);
    try {
      if (target !== own) {
        await CodeCell.execute(target, session);
      }
      await CodeCell.execute(own, session);
    } catch (err) {
      next.cancel();
      return trans().__('The re-run failed: %1', String((err as Error)?.message ?? err));
    }
    next.ran();
    const fresh = await next.report;
    if (!fresh) {
      return trans().__('The re-run showed no tapemagic report.');
    }
    this.host.setOutcome(fresh.seq, fixOutcome(entry.report, fresh.report, finding));
    return '';
  }

  /**
   * The first report of the entry's cell newer than it (null on timeout or cancel); `ran()`
   * says the cell finished, so a report still missing a moment later will not come.
   */
  private _nextReport(entry: ICellReport): { report: Promise<ICellReport | null>; cancel: () => void; ran: () => void } {
    let cancel = (): void => undefined;
    let ran = (): void => undefined;
    const report = new Promise<ICellReport | null>(resolve => {
      const look = (): void => {
        const hit = this.host.reports(entry.panel).find(e => e.cellId === entry.cellId && e.seq > entry.seq && !e.stale);
        if (hit) {
          done(hit);
        }
      };
      const done = (value: ICellReport | null): void => {
        clearTimeout(timer);
        this.host.changed.disconnect(look);
        resolve(value);
      };
      let timer = setTimeout(() => done(null), RERUN_TIMEOUT_MS);
      cancel = () => done(null);
      ran = () => {
        clearTimeout(timer);
        timer = setTimeout(() => done(null), AFTER_RUN_MS);
        look();
      };
      this.host.changed.connect(look);
    });
    return { report, cancel: () => cancel(), ran: () => ran() };
  }

  /**
   * Bring the notebook's rendered reports up to date with the cells: each card's fix buttons
   * enabled or disabled (with the reason), and the before/after line on a re-run's report.
   * With `only`, just the reports of those cells (the others cannot have changed).
   */
  decorate(panel: NotebookPanel, entries: readonly ICellReport[], only: ReadonlySet<string> | null = null): void {
    for (const cell of panel.content.widgets) {
      if (only && !only.has(cell.model.id)) {
        continue;
      }
      const newest = entries.filter(e => e.cellId === cell.model.id).sort((a, b) => b.seq - a.seq)[0];
      if (!newest) {
        continue;
      }
      for (const view of Array.from(cell.node.querySelectorAll('.jp-tapemagic-renderer .jp-tapemagic-report'))) {
        this._syncCards(view, newest);
        const shown = view.querySelector(':scope > .jp-tapemagic-outcome');
        if (newest.outcome && shown?.getAttribute('data-seq') !== String(newest.seq)) {
          const line = outcomeView(newest.outcome);
          line.setAttribute('data-seq', String(newest.seq));
          shown?.remove();
          view.querySelector(':scope > .jp-tapemagic-headline')?.after(line);
        } else if (!newest.outcome) {
          shown?.remove();
        }
      }
    }
    // The side panel's report (it marks which one it shows with data-seq).
    for (const entry of entries) {
      if (only && !only.has(entry.cellId)) {
        continue;
      }
      for (const view of Array.from(document.querySelectorAll(`.jp-tapemagic-panel .jp-tapemagic-report[data-seq="${entry.seq}"]`))) {
        this._syncCards(view, entry);
      }
    }
  }

  /** The fix buttons of the cards in `view` (a rendered report of `entry`). */
  private _syncCards(view: Element, entry: ICellReport): void {
    for (const card of Array.from(view.querySelectorAll('.jp-tapemagic-card[data-finding]'))) {
      const finding = entry.report.findings.find(f => f.id === card.getAttribute('data-finding'));
      if (finding) {
        setFixState(card, this.state(entry, finding));
      }
    }
  }

  private _cell(entry: ICellReport, id: string): Cell | undefined {
    return entry.panel.content.widgets.find(c => c.model.id === id);
  }

  /** The code cell with an editor (a cell not drawn yet is scrolled to, so it gets one). */
  private async _editable(entry: ICellReport, id: string): Promise<CodeCell | null> {
    // Duck-typed, not instanceof: the classes come from JupyterLab's shared modules.
    const cell = this._cell(entry, id);
    if (!cell || cell.model.type !== 'code') {
      return null;
    }
    if (!cell.editor) {
      await entry.panel.content.scrollToCell(cell);
    }
    await cell.ready;
    const view = (cell.editor as Partial<CodeMirrorEditor> | null)?.editor;
    return view && typeof view.dispatch === 'function' ? (cell as CodeCell) : null;
  }
}
