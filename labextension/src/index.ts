/**
 * The plugin entry point (`jupyterlab.extension` in package.json): wiring only.
 */
import { JupyterFrontEndPlugin } from '@jupyterlab/application';

const plugins: JupyterFrontEndPlugin<unknown>[] = [];
export default plugins;
