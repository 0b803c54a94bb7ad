/**
 * The output-area cards' requests (the renderer cannot reach the notebook): "Go to line",
 * "Apply" / "Apply and re-run", and "a report was drawn". The tracker answers them; this owns
 * the three document listeners and the body classes that say someone answers, and removes
 * them all on dispose.
 */
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { IDisposable } from '@lumino/disposable';
import { trans } from './i18n';
import { APPLY_EVENT, CAN_APPLY_CLASS, CAN_REVEAL_CLASS, Finding, RENDERED_EVENT, REVEAL_EVENT } from './model/types';
import { ICellReport, IPlacedFinding } from './tokens';

/** What answering a card needs from the tracker. */
export interface ICardHost {
  readonly notebooks: INotebookTracker;
  reports(panel: NotebookPanel | null): ICellReport[];
  reveal(entry: ICellReport, finding: Finding): Promise<void>;
  applyFix(entry: ICellReport, finding: Finding, rerun: boolean): Promise<string>;
  syncOutputs(panel: NotebookPanel): void;
}

/** The document listeners of the cards' events. */
export class CardEvents implements IDisposable {
  constructor(private readonly host: ICardHost) {
    this._listen(REVEAL_EVENT, ev => this._onRevealEvent(ev as CustomEvent));
    this._listen(APPLY_EVENT, ev => this._onApplyEvent(ev as CustomEvent));
    this._listen(RENDERED_EVENT, ev => this._onRendered(ev));
    document.body.classList.add(CAN_REVEAL_CLASS, CAN_APPLY_CLASS);
  }

  get isDisposed(): boolean {
    return this._disposed;
  }

  /** Remove every listener this added, and the body classes. */
  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    for (const [type, fn] of this._listeners) {
      document.removeEventListener(type, fn);
    }
    this._listeners = [];
    document.body.classList.remove(CAN_REVEAL_CLASS, CAN_APPLY_CLASS);
  }

  private _listen(type: string, fn: (ev: Event) => void): void {
    document.addEventListener(type, fn);
    this._listeners.push([type, fn]);
  }

  /** The output-area card an event came from: its report entry and finding. */
  private _locate(ev: CustomEvent): IPlacedFinding | null {
    const target = ev.target as Element | null;
    const findingId = (ev.detail as { findingId?: unknown } | null)?.findingId;
    const panel = this.host.notebooks.find(p => !!target && p.node.contains(target));
    const cell = panel?.content.widgets.find(c => !!target && c.node.contains(target));
    if (!panel || !cell || typeof findingId !== 'string') {
      return null;
    }
    ev.stopPropagation();
    for (const entry of this.host.reports(panel)) {
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
      void this.host.reveal(hit.entry, hit.finding);
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
    this.host.applyFix(hit.entry, hit.finding, detail?.rerun === true).then(done, err => done(String(err)));
  }

  /** A report was drawn in an output area: sync its fix buttons and outcome line. */
  private _onRendered(ev: Event): void {
    const target = ev.target as Element | null;
    const panel = this.host.notebooks.find(p => !!target && p.node.contains(target));
    if (panel) {
      this.host.syncOutputs(panel);
    }
  }

  private _listeners: Array<[string, (ev: Event) => void]> = [];
  private _disposed = false;
}
