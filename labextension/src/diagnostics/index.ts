/**
 * `tapemagic:diagnostics`: registers the CodeMirror extension for every cell editor.
 */
import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { EditorExtensionRegistry, IEditorExtensionRegistry } from '@jupyterlab/codemirror';
import { ITapemagicReports } from '../tokens';
import { tapemagicDiagnostics } from './extension';

/** Inline diagnostics and quick fixes in the cells that produced (or are named by) reports. */
export const diagnosticsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'tapemagic:diagnostics',
  description: 'Underlines tapemagic findings in cell editors, with quick fixes.',
  autoStart: true,
  requires: [IEditorExtensionRegistry, ITapemagicReports],
  activate: (_app: JupyterFrontEnd, registry: IEditorExtensionRegistry, reports: ITapemagicReports) => {
    registry.addExtension({
      name: 'tapemagic:diagnostics',
      factory: options => {
        const cellId = (options.model.sharedModel as unknown as { id?: unknown }).id;
        if (options.inline === false || typeof cellId !== 'string') {
          return null;
        }
        return EditorExtensionRegistry.createImmutableExtension(tapemagicDiagnostics(reports, cellId));
      }
    });
  }
};
