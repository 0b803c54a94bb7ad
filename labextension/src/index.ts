/**
 * The plugin entry point (`jupyterlab.extension` in package.json): wiring only.
 */
import { JupyterFrontEndPlugin } from '@jupyterlab/application';
import { diagnosticsPlugin } from './diagnostics';
import { hintsPlugin } from './hints';
import { panelPlugin, trackerPlugin } from './panel';

const plugins: JupyterFrontEndPlugin<any>[] = [trackerPlugin, panelPlugin, diagnosticsPlugin, hintsPlugin];
export default plugins;
