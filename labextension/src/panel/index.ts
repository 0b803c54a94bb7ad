/**
 * `tapemagic:tracker` (the reports service) and `tapemagic:panel` (the right side panel).
 */
import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ITranslator } from '@jupyterlab/translation';
import { setTranslator, trans } from '../i18n';
import { INotebookTracker } from '@jupyterlab/notebook';
import { LabIcon } from '@jupyterlab/ui-components';
import { ReportTracker } from '../tracker';
import { CommandIDs, ITapemagicReports } from '../tokens';
import { OPEN_PANEL_EVENT, POINT_TO_PANEL_CLASS } from '../model/types';
import { TapemagicPanel } from './panel';

/** A scissors-on-a-tape icon for the sidebar tab. */
const tapeIcon = new LabIcon({
  name: 'tapemagic:tape',
  svgstr:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><g class="jp-icon3" fill="#616161">' +
    '<path d="M3 6h18v3H3zM3 15h18v3H3z"/><circle cx="8" cy="12" r="2"/><circle cx="16" cy="12" r="2"/>' +
    '<path d="M9.5 11.2 20 8v1.4l-9 3z M9.5 12.8 20 16v-1.4l-9-3z"/></g></svg>'
});

/** Provides {@link ITapemagicReports}. */
export const trackerPlugin: JupyterFrontEndPlugin<ITapemagicReports> = {
  id: 'tapemagic:tracker',
  description: 'Follows tapemagic reports in notebook outputs.',
  autoStart: true,
  requires: [INotebookTracker],
  optional: [ITranslator],
  provides: ITapemagicReports,
  activate: (app: JupyterFrontEnd, notebooks: INotebookTracker, translator: ITranslator | null) => {
    setTranslator(translator);
    return new ReportTracker(app, notebooks);
  }
};

/** The right side panel. */
export const panelPlugin: JupyterFrontEndPlugin<void> = {
  id: 'tapemagic:panel',
  description: 'The tapemagic side panel.',
  autoStart: true,
  requires: [ITapemagicReports],
  optional: [ITranslator],
  activate: (app: JupyterFrontEnd, reports: ITapemagicReports, translator: ITranslator | null) => {
    setTranslator(translator);
    const panel = new TapemagicPanel(reports);
    panel.title.icon = tapeIcon;
    app.shell.add(panel, 'right', { rank: 1000 });
    app.commands.addCommand(CommandIDs.openPanel, {
      label: trans().__('Show tapemagic gradient reports'),
      execute: () => app.shell.activateById(panel.id)
    });
    // Notebook 7 keeps its right sidebar closed, with no tab to see, under View → Right
    // Sidebar: there a report with findings points to the panel and can open it
    // (JupyterLab shows the panel's tab in its right sidebar all the time).
    if (app.name === 'Jupyter Notebook') {
      document.body.classList.add(POINT_TO_PANEL_CLASS);
    }
    document.addEventListener(OPEN_PANEL_EVENT, () => void app.commands.execute(CommandIDs.openPanel));
  }
};
