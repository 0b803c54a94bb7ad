/**
 * `tapemagic:hints`: as-you-type hints in the code cells of Python notebooks, from the server
 * extension's lint endpoint (no kernel needed). A runtime report of the cell, made from its
 * current text, replaces them until the cell is edited again.
 */
import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { EditorExtensionRegistry, IEditorExtensionRegistry } from '@jupyterlab/codemirror';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { ITapemagicReports } from '../tokens';
import { HintClient } from './client';
import { IHintHost, tapemagicHints } from './extension';

/**
 * The MIME types JupyterLab gives the editor of a Python code cell: `text/x-ipython` once the
 * kernel's `language_info` is known, `text/x-python` from the notebook's kernelspec before.
 */
const PYTHON_MIME_TYPES: readonly string[] = ['text/x-ipython', 'text/x-python'];

/** The model of the editor a factory is asked for (the part this plugin reads). */
interface IEditorModelLike {
  readonly mimeType: string;
  readonly sharedModel: unknown;
}

/** The notebook cell's model id and type, when the editor edits a notebook cell's text. */
function cellOf(model: IEditorModelLike): { id: string; type: string } | null {
  const shared = model.sharedModel as { id?: unknown; cell_type?: unknown };
  return typeof shared.id === 'string' && typeof shared.cell_type === 'string'
    ? { id: shared.id, type: shared.cell_type }
    : null;
}

/** One cell's view of the notebooks and their reports. */
class CellHintHost implements IHintHost {
  constructor(
    readonly client: HintClient,
    private readonly reports: ITapemagicReports,
    private readonly notebooks: INotebookTracker,
    private readonly model: IEditorModelLike,
    private readonly cellId: string
  ) {}

  get changed(): ITapemagicReports['changed'] {
    return this.reports.changed;
  }

  target(): string | null {
    if (!PYTHON_MIME_TYPES.includes(this.model.mimeType)) {
      return null;
    }
    const panel = this._panel();
    return panel ? panel.context.path : null;
  }

  replaced(): boolean {
    const panel = this._panel();
    return !!panel && this.reports.reports(panel).some(e => e.cellId === this.cellId && !e.stale);
  }

  /** The open notebook that holds the cell (console cells are in none). */
  private _panel(): NotebookPanel | null {
    return this.notebooks.find(p => p.content.widgets.some(c => c.model.id === this.cellId)) ?? null;
  }
}

/** Hints as the user types, drawn apart from the runtime findings. */
export const hintsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'tapemagic:hints',
  description: 'Underlines what may cut a gradient while a notebook cell is typed (no kernel needed).',
  autoStart: true,
  requires: [IEditorExtensionRegistry, ITapemagicReports, INotebookTracker],
  activate: (
    _app: JupyterFrontEnd,
    registry: IEditorExtensionRegistry,
    reports: ITapemagicReports,
    notebooks: INotebookTracker
  ) => {
    const client = new HintClient();
    registry.addExtension({
      name: 'tapemagic:hints',
      factory: options => {
        const cell = cellOf(options.model);
        if (options.inline === false || !cell || cell.type !== 'code') {
          return null;
        }
        const host = new CellHintHost(client, reports, notebooks, options.model, cell.id);
        return EditorExtensionRegistry.createImmutableExtension(tapemagicHints(host));
      }
    });
  }
};
