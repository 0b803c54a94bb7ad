/**
 * Follows every open notebook's code-cell outputs of the report MIME type (`tapemagic:tracker`).
 */
import { JupyterFrontEnd } from '@jupyterlab/application';
import { ICellModel, ICodeCellModel } from '@jupyterlab/cells';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { IOutputModel } from '@jupyterlab/rendermime';
import { IDisposable } from '@lumino/disposable';
import { Signal } from '@lumino/signaling';
import { parseReport } from './model/report';
import { toEditorPosition } from './model/positions';
import { FixOutcome, FixState } from './model/fixes';
import { Finding, MIME_TYPE, Report } from './model/types';
import { FixLoop, IFixHost } from './fixloop';
import { CardEvents } from './cardEvents';
import { ICellReport, IPlacedFinding, ITapemagicReports } from './tokens';

interface Seen {
  report: Report | null;
  source: string;
  seq: number;
}

/** How long typing pauses before the edited cells are looked at again (once per burst). */
export const EDIT_SETTLE_MS = 150;

/** The cells of one notebook edited since the last look, and its pending timer. */
interface Pending {
  cells: Set<string>;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * One notebook's signal connections (the slots' `this`), so that closing the notebook, or
 * disposing of the tracker, disconnects every one of them with `Signal.clearData`.
 */
class PanelWatch {
  constructor(readonly panel: NotebookPanel, readonly tracker: ReportTracker) {}
  onOutputs(): void {
    this.tracker.rescanNow(this.panel);
  }
  /** A cell's text changed: only that cell (and the reports whose fixes edit it) may change. */
  onContent(cell: ICellModel): void {
    this.tracker.cellEdited(this.panel, cell.id);
  }
  onCells(): void {
    this.tracker.hookCells(this);
    this.tracker.rescanNow(this.panel);
  }
}

/** The implementation of {@link ITapemagicReports}; `dispose()` undoes everything it hooked. */
export class ReportTracker implements IFixHost, IDisposable {
  /** Follow the notebooks of `notebooks`. */
  constructor(private readonly app: JupyterFrontEnd, readonly notebooks: INotebookTracker) {
    notebooks.widgetAdded.connect(this._onAdded, this);
    notebooks.forEach(panel => this._watch(panel));
    notebooks.currentChanged.connect(this._onCurrent, this);
    this._cards = new CardEvents(this);
  }

  get isDisposed(): boolean {
    return this._disposed;
  }

  /** Remove the document listeners and body classes, disconnect every signal, drop timers. */
  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    this._cards.dispose();
    for (const pending of this._pending.values()) {
      clearTimeout(pending.timer);
    }
    this._pending.clear();
    for (const watch of this._watches.values()) {
      Signal.clearData(watch);
    }
    this._watches.clear();
    this._byPanel.clear();
    Signal.clearData(this);
  }

  get current(): NotebookPanel | null {
    return this.notebooks.currentWidget;
  }

  get changed(): Signal<ITapemagicReports, void> {
    return this._changed;
  }

  reports(panel: NotebookPanel | null = this.current): ICellReport[] {
    return panel ? [...(this._byPanel.get(panel) ?? [])].sort((a, b) => b.seq - a.seq) : [];
  }

  findingsForCell(cellId: string): IPlacedFinding[] {
    const out: IPlacedFinding[] = [];
    for (const entries of this._byPanel.values()) {
      for (const entry of entries) {
        for (const finding of entry.report.findings) {
          if (finding.location && this.targetCellId(entry, finding) === cellId) {
            out.push({ entry, finding });
          }
        }
      }
    }
    return out;
  }

  markStale(cellId: string): void {
    for (const entries of this._byPanel.values()) {
      for (const e of entries) {
        if (e.cellId === cellId) {
          this._staleUpTo.set(cellId, Math.max(e.seq, this._staleUpTo.get(cellId) ?? 0));
        }
      }
    }
    for (const panel of this._byPanel.keys()) {
      this._rescan(panel, false);
    }
    this._changed.emit();
  }

  async reveal(entry: ICellReport, finding: Finding): Promise<void> {
    const panel = entry.panel;
    const nb = panel.content;
    const targetId = this.targetCellId(entry, finding);
    const index = nb.widgets.findIndex(c => c.model.id === targetId);
    if (index < 0 || !finding.location) {
      return;
    }
    this.app.shell.activateById(panel.id);
    nb.deselectAll();
    nb.activeCellIndex = index;
    const cell = nb.widgets[index];
    await nb.scrollToCell(cell, 'center');
    await cell.ready;
    nb.mode = 'edit';
    const editor = cell.editor;
    if (editor) {
      const lineText = editor.getLine(finding.location.line - 1);
      editor.setCursorPosition(toEditorPosition(finding.location, lineText));
      editor.focus();
    }
  }

  fixState(entry: ICellReport, finding: Finding): FixState {
    return this._fixes.state(entry, finding);
  }

  applyFix(entry: ICellReport, finding: Finding, rerun: boolean): Promise<string> {
    return this._fixes.apply(entry, finding, rerun);
  }

  setOutcome(seq: number, outcome: FixOutcome): void {
    this._outcomes.set(seq, outcome);
    for (const panel of this._byPanel.keys()) {
      this._rescan(panel, false);
    }
    this._changed.emit();
  }

  /** Bring a notebook's rendered reports up to date (a report was just drawn in it). */
  syncOutputs(panel: NotebookPanel): void {
    this._markOutputs(panel, this._byPanel.get(panel) ?? []);
  }

  /** The model id of the cell a finding should be shown in. */
  targetCellId(entry: ICellReport, f: Finding): string {
    const loc = f.location;
    if (!loc) {
      return entry.cellId;
    }
    const cells = entry.panel.model?.cells;
    if (loc.cell_id && cells) {
      for (let i = 0; i < cells.length; i++) {
        if (cells.get(i).id === loc.cell_id) {
          return loc.cell_id;
        }
      }
    }
    const own = entry.report.cell.execution_count;
    if (loc.execution_count !== null && loc.execution_count !== undefined && loc.execution_count !== own && cells) {
      for (let i = 0; i < cells.length; i++) {
        const c = cells.get(i);
        if (c.type === 'code' && (c as ICodeCellModel).executionCount === loc.execution_count) {
          return c.id;
        }
      }
      return '';
    }
    return entry.cellId;
  }

  private _onAdded(_: INotebookTracker, panel: NotebookPanel): void {
    this._watch(panel);
  }

  private _onCurrent(): void {
    this._changed.emit();
  }

  private _watch(panel: NotebookPanel): void {
    if (this._watches.has(panel)) {
      return;
    }
    const watch = new PanelWatch(panel, this);
    this._watches.set(panel, watch);
    panel.context.ready
      .then(() => {
        const model = panel.content.model;
        if (!model || this._disposed || panel.isDisposed) {
          return;
        }
        model.cells.changed.connect(watch.onCells, watch);
        this.hookCells(watch);
        this.rescanNow(panel);
      })
      .catch(() => undefined);
    panel.disposed.connect(() => {
      Signal.clearData(watch);
      this._watches.delete(panel);
      const pending = this._pending.get(panel);
      if (pending) {
        clearTimeout(pending.timer);
        this._pending.delete(panel);
      }
      this._byPanel.delete(panel);
      this._changed.emit();
    }, watch);
  }

  /** Connect the code cells of `watch`'s notebook not connected yet (connect ignores repeats). */
  hookCells(watch: PanelWatch): void {
    const cells = watch.panel.content.model?.cells;
    for (let i = 0; cells && i < cells.length; i++) {
      const cell = cells.get(i);
      if (cell.type !== 'code') {
        continue;
      }
      (cell as ICodeCellModel).outputs.changed.connect(watch.onOutputs, watch);
      cell.contentChanged.connect(watch.onContent, watch);
    }
  }

  /** Look at the whole notebook now (outputs or cells changed); pending edits are covered. */
  rescanNow(panel: NotebookPanel): void {
    const pending = this._pending.get(panel);
    if (pending) {
      clearTimeout(pending.timer);
      this._pending.delete(panel);
    }
    this._rescan(panel);
  }

  /** A cell's text changed: note it, and look once typing pauses ({@link EDIT_SETTLE_MS}). */
  cellEdited(panel: NotebookPanel, cellId: string): void {
    const pending = this._pending.get(panel);
    if (pending) {
      clearTimeout(pending.timer);
    }
    const cells = pending?.cells ?? new Set<string>();
    cells.add(cellId);
    const timer = setTimeout(() => {
      this._pending.delete(panel);
      if (!this._disposed && !panel.isDisposed) {
        this._recheckCells(panel, cells);
      }
    }, EDIT_SETTLE_MS);
    this._pending.set(panel, { cells, timer });
  }

  /**
   * After edits to `edited`: re-decide the staleness of those cells' reports, and sync the
   * stale banners and fix buttons of the reports they can affect (their own, and those whose
   * findings a fix would apply to an edited cell). Other cells are not looked at.
   */
  private _recheckCells(panel: NotebookPanel, edited: ReadonlySet<string>): void {
    const entries = this._byPanel.get(panel);
    if (!entries) {
      return;
    }
    const sources = new Map<string, string>();
    const model = panel.content.model;
    for (let i = 0; model && i < model.cells.length; i++) {
      const cell = model.cells.get(i);
      if (edited.has(cell.id)) {
        sources.set(cell.id, cell.sharedModel.getSource());
      }
    }
    const next = entries.map(e => {
      const source = sources.get(e.cellId);
      if (source === undefined) {
        return e;
      }
      const stale = this._madeOn.get(e.seq) !== source || e.seq <= (this._staleUpTo.get(e.cellId) ?? 0);
      return stale === e.stale ? e : { ...e, stale };
    });
    const affected = new Set(edited);
    for (const e of next) {
      if (e.report.findings.some(f => f.location && edited.has(this.targetCellId(e, f)))) {
        affected.add(e.cellId);
      }
    }
    this._store(panel, next, affected);
  }

  private _rescan(panel: NotebookPanel, emit = true): void {
    const found: Array<{ cell: ICodeCellModel; output: IOutputModel; source: string }> = [];
    const cells = panel.content.model?.cells;
    for (let i = 0; cells && i < cells.length; i++) {
      const cell = cells.get(i);
      if (cell.type !== 'code') {
        continue;
      }
      const outputs = (cell as ICodeCellModel).outputs;
      if (!outputs.length) {
        continue;
      }
      const source = cell.sharedModel.getSource();
      for (let j = 0; j < outputs.length; j++) {
        found.push({ cell: cell as ICodeCellModel, output: outputs.get(j), source });
      }
    }
    // Outputs seen for the first time in one pass (a notebook just opened) are numbered by
    // execution count, so "latest first" means the most recently run cell.
    const fresh = found.filter(f => !this._seen.has(f.output) && MIME_TYPE in f.output.data);
    fresh.sort((a, b) => (a.cell.executionCount ?? 0) - (b.cell.executionCount ?? 0));
    fresh.forEach(f => this._see(f.output, f.source));
    const entries: ICellReport[] = [];
    for (const { cell, output, source } of found) {
      const seen = this._see(output, source);
      if (seen?.report) {
        const stale = seen.source !== source || seen.seq <= (this._staleUpTo.get(cell.id) ?? 0);
        const outcome = this._outcomes.get(seen.seq) ?? null;
        this._madeOn.set(seen.seq, seen.source);
        entries.push({ panel, cellId: cell.id, report: seen.report, seq: seen.seq, stale, outcome });
      }
    }
    this._store(panel, entries, null, emit);
  }

  /** Keep `entries` as the notebook's reports; sync the outputs of `only` (null: all cells). */
  private _store(panel: NotebookPanel, entries: ICellReport[], only: ReadonlySet<string> | null, emit = true): void {
    const signature = entries.map(e => `${e.cellId}:${e.seq}:${e.stale}:${!!e.outcome}`).join(',');
    const unchanged = this._signature.get(panel) === signature;
    this._byPanel.set(panel, entries);
    this._signature.set(panel, signature);
    this._markOutputs(panel, entries, only);
    if (emit && !unchanged) {
      this._changed.emit();
    }
  }

  private _see(output: IOutputModel, source: string): Seen | null {
    if (!(MIME_TYPE in output.data)) {
      return null;
    }
    let seen = this._seen.get(output);
    if (!seen) {
      const parsed = parseReport(output.data[MIME_TYPE]);
      seen = { report: parsed.ok ? parsed.report : null, source, seq: ++this._seq };
      this._seen.set(output, seen);
    }
    return seen;
  }

  /** Show or hide the stale banner of the rendered reports in the cells `only` (null: all). */
  private _markOutputs(panel: NotebookPanel, entries: ICellReport[], only: ReadonlySet<string> | null = null): void {
    const stale = new Set(entries.filter(e => e.stale).map(e => e.cellId));
    for (const cell of panel.content.widgets) {
      if (only && !only.has(cell.model.id)) {
        continue;
      }
      for (const el of Array.from(cell.node.querySelectorAll('.jp-tapemagic-renderer'))) {
        el.classList.toggle('jp-mod-stale', stale.has(cell.model.id));
      }
    }
    this._fixes.decorate(panel, entries, only);
  }

  private _changed = new Signal<ITapemagicReports, void>(this);
  private _byPanel = new Map<NotebookPanel, ICellReport[]>();
  private _signature = new WeakMap<NotebookPanel, string>();
  private _seen = new WeakMap<IOutputModel, Seen>();
  /** Arrival number of a report → the text of its cell when it arrived. */
  private _madeOn = new Map<number, string>();
  private _watches = new Map<NotebookPanel, PanelWatch>();
  private _pending = new Map<NotebookPanel, Pending>();
  private _cards: CardEvents;
  private _disposed = false;
  /** Reports of a cell with `seq` up to this value were marked stale explicitly. */
  private _staleUpTo = new Map<string, number>();
  private _seq = 0;
  private _fixes = new FixLoop(this);
  /** Arrival number of a report → the outcome of the "Apply and re-run" that produced it. */
  private _outcomes = new Map<number, FixOutcome>();
}
