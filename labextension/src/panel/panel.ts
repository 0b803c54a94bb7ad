/**
 * The right-sidebar panel (`tapemagic-panel`): the active notebook's reports, latest first,
 * and the selected one large, with a pannable, zoomable graph and clickable findings.
 */
import { trans } from '../i18n';
import { Widget } from '@lumino/widgets';
import { locationLabel } from '../model/report';
import { PANEL_SHOWN_CLASS } from '../model/types';
import { h, richText } from '../view/dom';
import { reportView } from '../view/reportView';
import { ICellReport, ITapemagicReports } from '../tokens';

/** The id of the panel widget (and of its sidebar tab). */
export const PANEL_ID = 'tapemagic-panel';

/** The tapemagic side panel. */
export class TapemagicPanel extends Widget {
  /** Create the panel; it follows `reports`. */
  constructor(private readonly reports: ITapemagicReports) {
    super();
    this.id = PANEL_ID;
    this.addClass('jp-tapemagic-panel');
    this.title.caption = trans().__('tapemagic: gradient reports');
    this.node.setAttribute('role', 'region');
    this.node.setAttribute('aria-label', trans().__('tapemagic gradient reports'));
    reports.changed.connect(this.update, this);
    this.update();
  }

  /** Output-area reports stop pointing to the panel while it is shown. */
  protected onAfterShow(): void {
    document.body.classList.add(PANEL_SHOWN_CLASS);
  }

  protected onAfterHide(): void {
    document.body.classList.remove(PANEL_SHOWN_CLASS);
  }

  /** Re-render the list and the selected report. */
  protected onUpdateRequest(): void {
    this.render();
  }

  /** Render now. */
  render(): void {
    const panel = this.reports.current;
    const entries = this.reports.reports(panel);
    const newest = entries.length ? entries[0].seq : 0;
    const selected =
      newest > this._newestSeen
        ? entries[0]
        : entries.find(e => e.seq === this._selectedSeq) ?? entries.find(e => e.cellId === this._selectedCell) ?? entries[0] ?? null;
    this._newestSeen = Math.max(this._newestSeen, newest);
    const key = `${panel?.id}|${entries.map(e => `${e.seq}:${e.stale}:${!!e.outcome}`).join(',')}|${selected?.seq}`;
    if (key === this._renderedKey) {
      return;
    }
    this._renderedKey = key;
    this._selectedCell = selected?.cellId ?? null;
    this._selectedSeq = selected?.seq ?? -1;
    const title = h('div', { class: 'jp-tapemagic-panel-title' }, 'tapemagic', panel ? h('span', { class: 'jp-tapemagic-muted' }, ` · ${panel.title.label}`) : null);
    if (!panel || !entries.length) {
      this.node.replaceChildren(
        title,
        h(
          'div',
          { class: 'jp-tapemagic-empty' },
          h('p', {}, panel ? trans().__('No gradient reports in this notebook yet.') : trans().__('Open a notebook to see its gradient reports.')),
          h('p', {}, richText(trans().__('Run a cell with %1 on its first line: tapemagic shows which weights get no gradient, where and why, and how to fix it.', '`%%gradcheck`')))
        )
      );
      return;
    }
    const list = h('ul', { class: 'jp-tapemagic-report-list', attrs: { role: 'listbox' } });
    for (const entry of entries) {
      list.append(this._row(entry, entry === selected));
    }
    const detail = h('div', { class: 'jp-tapemagic-panel-detail' });
    if (selected) {
      const view = reportView(selected.report, {
        panel: true,
        onReveal: f => void this.reports.reveal(selected!, f),
        onApply: (f, rerun) => this.reports.applyFix(selected!, f, rerun),
        fixState: f => this.reports.fixState(selected!, f),
        outcome: selected.outcome
      });
      if (selected.stale) {
        view.node.classList.add('jp-mod-stale');
      }
      // the tracker keeps this report's fix buttons in step with the cell text
      view.node.setAttribute('data-seq', String(selected.seq));
      detail.append(view.node);
    }
    this.node.replaceChildren(title, list, detail);
  }

  private _row(entry: ICellReport, isSelected: boolean): HTMLElement {
    const count = entry.report.cell.execution_count;
    const first = entry.report.findings[0];
    const row = h(
      'li',
      {
        class: `jp-tapemagic-report-row${isSelected ? ' jp-mod-selected' : ''}`,
        attrs: { role: 'option', 'aria-selected': String(isSelected), 'data-cell-id': entry.cellId }
      },
      h('span', { class: 'jp-tapemagic-prompt' }, count === null ? 'In[ ]' : `In[${count}]`),
      h('span', { class: 'jp-tapemagic-row-headline' }, richText(entry.report.headline || trans().__('report'))),
      entry.stale ? h('span', { class: 'jp-tapemagic-stale-badge' }, trans().__('stale')) : null,
      first ? h('span', { class: 'jp-tapemagic-muted' }, ` ${locationLabel(entry.report, first)}`) : null
    );
    row.addEventListener('click', () => {
      this._selectedCell = entry.cellId;
      this._selectedSeq = entry.seq;
      this.render();
    });
    return row;
  }

  private _selectedCell: string | null = null;
  private _selectedSeq = -1;
  private _newestSeen = 0;
  private _renderedKey = '';
}
