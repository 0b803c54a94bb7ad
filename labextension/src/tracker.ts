/**
 * Follows every open notebook's code-cell outputs of the report MIME type (`tapemagic:tracker`).
 */
import { JupyterFrontEnd } from '@jupyterlab/application';
import { ICodeCellModel } from '@jupyterlab/cells';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { IOutputModel } from '@jupyterlab/rendermime';
import { Signal } from '@lumino/signaling';
import { trans } from './i18n';
import { parseReport } from './model/report';
import { toEditorPosition } from './model/positions';
import { FixOutcome, FixState } from './model/fixes';
import { APPLY_EVENT, CAN_APPLY_CLASS, CAN_REVEAL_CLASS, Finding, MIME_TYPE, Report, RENDERED_EVENT, REVEAL_EVENT } from './model/types';
import { FixLoop, IFixHost } from './fixloop';
import { ICellReport, IPlacedFinding, ITapemagicReports } from './tokens';

interface Seen {
  report: Report | null;
  source: string;
  seq: number;
}

/** The implementation of {@link ITapemagicReports}. */
export class ReportTracker implements IFixHost {
  /** Follow the notebooks of `notebooks`. */
  constructor(private readonly app: JupyterFrontEnd, private readonly notebooks: INotebookTracker) {
    notebooks.widgetAdded.connect((_, panel) => this._watch(panel));
    notebooks.forEach(panel => this._watch(panel));
    notebooks.currentChanged.connect(() => this._changed.emit());
    // The output-area cards' "Go to line" buttons (the renderer cannot reach the notebook).
    document.addEventListener(REVEAL_EVENT, ev => this._onRevealEvent(ev as CustomEvent));
    document.body.classList.add(CAN_REVEAL_CLASS);
    // Their "Apply" buttons, and a freshly drawn report (its buttons and outcome line).
    document.addEventListener(APPLY_EVENT, ev => this._onApplyEvent(ev as CustomEvent));
    document.addEventListener(RENDERED_EVENT, ev => this._onRendered(ev));
    document.body.classList.add(CAN_APPLY_CLASS);
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

  /** The output-area card an event came from: its report entry and finding. */
  private _locate(ev: CustomEvent): IPlacedFinding | null {
    const target = ev.target as Element | null;
    const findingId = (ev.detail as { findingId?: unknown } | null)?.findingId;
    const panel = this.notebooks.find(p => !!target && p.node.contains(target));
    const cell = panel?.content.widgets.find(c => !!target && c.node.contains(target));
    if (!panel || !cell || typeof findingId !== 'string') {
      return null;
    }
    ev.stopPropagation();
    for (const entry of this.reports(panel)) {
      const finding = entry.report.findings.find(f => f.id === findingId);
      if (entry.cellId === cell.model.id && finding) {
        return { entry, finding };
      }
    }
    return null;
  }

  /** Answer a card's "Go to line": find its notebook, cell and report from where it sits. */
  private _onRevealEvent(ev: CustomEvent): void {
    const hit = this._locate(ev);
    if (hit) {
      void this.reveal(hit.entry, hit.finding);
    }
  }

  /** Answer a card's "Apply" / "Apply and re-run"; `detail.done` gets the outcome text. */
  private _onApplyEvent(ev: CustomEvent): void {
    const detail = ev.detail as { rerun?: unknown; done?: unknown } | null;
    const done = typeof detail?.done === 'function' ? (detail.done as (why: string) => void) : () => undefined;
    const hit = this._locate(ev);
    if (!hit) {
      done(trans().__('This report is not in an open notebook.'));
      return;
    }
    this.applyFix(hit.entry, hit.finding, detail?.rerun === true).then(done, err => done(String(err)));
  }

  /** A report was drawn in an output area: sync its fix buttons and outcome line. */
  private _onRendered(ev: Event): void {
    const target = ev.target as Element | null;
    const panel = this.notebooks.find(p => !!target && p.node.contains(target));
    if (panel) {
      this._markOutputs(panel, this._byPanel.get(panel) ?? []);
    }
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

  private _watch(panel: NotebookPanel): void {
    const rescan = (): void => this._rescan(panel);
    const hook = (): void => {
      const model = panel.content.model;
      if (!model) {
        return;
      }
      model.cells.changed.connect(() => {
        this._hookCells(panel, rescan);
        rescan();
      });
      this._hookCells(panel, rescan);
      rescan();
    };
    panel.context.ready.then(hook).catch(() => undefined);
    panel.disposed.connect(() => {
      this._byPanel.delete(panel);
      this._changed.emit();
    });
  }

  private _hookCells(panel: NotebookPanel, rescan: () => void): void {
    const cells = panel.content.model?.cells;
    for (let i = 0; cells && i < cells.length; i++) {
      const cell = cells.get(i);
      if (cell.type !== 'code' || this._hooked.has(cell)) {
        continue;
      }
      this._hooked.add(cell);
      (cell as ICodeCellModel).outputs.changed.connect(rescan);
      cell.contentChanged.connect(rescan);
    }
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
        entries.push({ panel, cellId: cell.id, report: seen.report, seq: seen.seq, stale, outcome });
      }
    }
    const signature = entries.map(e => `${e.cellId}:${e.seq}:${e.stale}:${!!e.outcome}`).join(',');
    const unchanged = this._signature.get(panel) === signature;
    this._byPanel.set(panel, entries);
    this._signature.set(panel, signature);
    this._markOutputs(panel, entries);
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

  /** Show or hide the stale banner of the rendered reports in each cell's output area. */
  private _markOutputs(panel: NotebookPanel, entries: ICellReport[]): void {
    const stale = new Set(entries.filter(e => e.stale).map(e => e.cellId));
    for (const cell of panel.content.widgets) {
      for (const el of Array.from(cell.node.querySelectorAll('.jp-tapemagic-renderer'))) {
        el.classList.toggle('jp-mod-stale', stale.has(cell.model.id));
      }
    }
    this._fixes.decorate(panel, entries);
  }

  private _changed = new Signal<ITapemagicReports, void>(this);
  private _byPanel = new Map<NotebookPanel, ICellReport[]>();
  private _signature = new WeakMap<NotebookPanel, string>();
  private _seen = new WeakMap<IOutputModel, Seen>();
  private _hooked = new WeakSet<object>();
  /** Reports of a cell with `seq` up to this value were marked stale explicitly. */
  private _staleUpTo = new Map<string, number>();
  private _seq = 0;
  private _fixes = new FixLoop(this);
  /** Arrival number of a report → the outcome of the "Apply and re-run" that produced it. */
  private _outcomes = new Map<number, FixOutcome>();
}
