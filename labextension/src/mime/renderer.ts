/**
 * The output-area widget for `application/vnd.tapemagic.report.v1+json`.
 */
import { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';
import { setTranslator } from '../i18n';
import { APPLY_EVENT, MIME_TYPE, RENDERED_EVENT, REVEAL_EVENT } from '../model/types';
import { renderPayload } from '../view/reportView';

/** CSS class of the renderer widget. */
export const RENDERER_CLASS = 'jp-tapemagic-renderer';

/** Renders one report in the output area. Report data only ever becomes text nodes. */
export class ReportRenderer extends Widget implements IRenderMime.IRenderer {
  /** Create a renderer for the given MIME type. */
  constructor(options: IRenderMime.IRendererOptions) {
    super();
    this._mimeType = options.mimeType;
    setTranslator(options.translator);
    this.addClass(RENDERER_CLASS);
  }

  /** Render the report held by `model`; resolves once the graph is laid out. */
  renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    const { node, done } = renderPayload(model.data[this._mimeType], {
      onReveal: f => this.node.dispatchEvent(new CustomEvent(REVEAL_EVENT, { bubbles: true, detail: { findingId: f.id } })),
      // The tracker plugin answers (it can reach the cell); `done` gets '' or why not.
      onApply: (f, rerun) =>
        new Promise<string>(done => {
          this.node.dispatchEvent(new CustomEvent(APPLY_EVENT, { bubbles: true, detail: { findingId: f.id, rerun, done } }));
        })
    });
    this.node.replaceChildren(node);
    this._announce();
    return done;
  }

  /** Once in the page, let the tracker set the fix buttons' state and the outcome line. */
  protected onAfterAttach(): void {
    this._announce();
  }

  private _announce(): void {
    if (this.isAttached) {
      this.node.dispatchEvent(new Event(RENDERED_EVENT, { bubbles: true }));
    }
  }

  private _mimeType: string;
}

/** The renderer factory: `safe` (renders in untrusted notebooks too), rank 0 so it wins over the bundle's text/html. */
export const rendererFactory: IRenderMime.IRendererFactory = {
  safe: true,
  mimeTypes: [MIME_TYPE],
  defaultRank: 0,
  createRenderer: options => new ReportRenderer(options)
};
