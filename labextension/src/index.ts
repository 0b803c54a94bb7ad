/**
 * The plugin entry point (`jupyterlab.extension` in package.json): wiring only.
 */
import { JupyterFrontEndPlugin } from '@jupyterlab/application';
import { diagnosticsPlugin } from './diagnostics';
import { panelPlugin, trackerPlugin } from './panel';

const plugins: JupyterFrontEndPlugin<any>[] = [trackerPlugin, panelPlugin, diagnosticsPlugin];
export default plugins;
