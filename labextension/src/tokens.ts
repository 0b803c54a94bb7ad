/**
 * The service the tracker plugin provides and the panel and diagnostics plugins use.
 */
import { NotebookPanel } from '@jupyterlab/notebook';
import { Token } from '@lumino/coreutils';
import { ISignal } from '@lumino/signaling';
import { FixOutcome, FixState } from './model/fixes';
import { Finding, Report } from './model/types';

/** Command ids. */
export namespace CommandIDs {
  /** Open (activate) the tapemagic side panel. */
  export const openPanel = 'tapemagic:open-panel';
}

/** One report output of one code cell. */
export interface ICellReport {
  /** The notebook that holds the cell. */
  readonly panel: NotebookPanel;
  /** The cell's model id (its nbformat id). */
  readonly cellId: string;
  /** The checked report. */
  readonly report: Report;
  /** Arrival order in this page: larger is newer. */
  readonly seq: number;
  /** True once the cell's text changed after the report was made (until it is re-run). */
  readonly stale: boolean;
  /** Set on the report an "Apply and re-run" produced: the weights before and after. */
  readonly outcome: FixOutcome | null;
}

/** A finding together with the report it belongs to. */
export interface IPlacedFinding {
  readonly entry: ICellReport;
  readonly finding: Finding;
}

/** Follows notebooks and the tapemagic reports in their outputs. */
export interface ITapemagicReports {
  /** The notebook the panel follows (the active one), or null. */
  readonly current: NotebookPanel | null;
  /** Emitted when reports or staleness change in any notebook, or the current one changes. */
  readonly changed: ISignal<ITapemagicReports, void>;
  /** The reports of a notebook's cells, latest first (default: the current notebook). */
  reports(panel?: NotebookPanel | null): ICellReport[];
  /** The findings to underline in the cell with this model id, in any open notebook. */
  findingsForCell(cellId: string): IPlacedFinding[];
  /** Mark a cell's reports stale (e.g. after a quick fix edited it). */
  markStale(cellId: string): void;
  /** Scroll to the finding's cell, select it and put the cursor on the finding's line. */
  reveal(entry: ICellReport, finding: Finding): Promise<void>;
  /** Can the finding's fix be applied to its cell as the cell is now? */
  fixState(entry: ICellReport, finding: Finding): FixState;
  /**
   * Apply the finding's fix (undoable); with `rerun`, then run the cell with `%%gradcheck`
   * and attach the before/after outcome to its new report. Resolves to '' or to why not.
   */
  applyFix(entry: ICellReport, finding: Finding, rerun: boolean): Promise<string>;
}

/** The token of {@link ITapemagicReports}. */
export const ITapemagicReports = new Token<ITapemagicReports>(
  'tapemagic:ITapemagicReports',
  'The tapemagic reports of open notebooks.'
);
