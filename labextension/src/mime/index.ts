/**
 * The mime extension entry point (`jupyterlab.mimeExtension` in package.json).
 */
import { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { MIME_TYPE } from '../model/types';
import { rendererFactory } from './renderer';

/** The tapemagic report renderer extension (`tapemagic:mime`). */
const extension: IRenderMime.IExtension = {
  id: 'tapemagic:mime',
  description: 'Renders tapemagic %%gradcheck reports.',
  rendererFactory,
  rank: 0,
  dataType: 'json',
  documentWidgetFactoryOptions: []
};

export { MIME_TYPE };
export default extension;
