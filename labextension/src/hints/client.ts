/**
 * The client of the server extension's `POST {baseUrl}tapemagic/lint` endpoint.
 *
 * No kernel is involved: the Jupyter server answers from the cell text alone. Every failure
 * (server extension off, network error, bad answer) is quiet apart from a `console.debug`,
 * since a hint request goes out after each pause in typing.
 */
import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';
import { IHint, parseHints } from './model';

/** The endpoint's path under the server's base URL. */
export const LINT_ENDPOINT = 'tapemagic/lint';

/** Asks the server for the hints of one cell's text. */
export class HintClient {
  /** Use `settings` (default: the page's server settings). */
  constructor(settings?: ServerConnection.ISettings) {
    this._settings = settings ?? ServerConnection.makeSettings();
  }

  /**
   * The hints for `source` (the cell text as the editor holds it) of the notebook at `path`.
   *
   * Resolves to null when there is no answer: aborted through `signal`, the endpoint is missing
   * (404: after one, no further request is made from this page), or any other failure.
   * Never rejects.
   */
  async lint(source: string, path: string, signal?: AbortSignal): Promise<IHint[] | null> {
    if (this._missing) {
      return null;
    }
    const url = URLExt.join(this._settings.baseUrl, LINT_ENDPOINT);
    const init: RequestInit = { method: 'POST', body: JSON.stringify({ source, path }), signal };
    let response: Response;
    try {
      response = await ServerConnection.makeRequest(url, init, this._settings);
    } catch (err) {
      if (!signal?.aborted) {
        console.debug('tapemagic: no hints, the lint request failed', err);
      }
      return null;
    }
    if (response.status === 404) {
      // The server extension is not enabled on this server: stop asking until the page reloads.
      this._missing = true;
      console.debug('tapemagic: no hints, the server has no tapemagic/lint endpoint (404)');
      return null;
    }
    if (!response.ok) {
      console.debug(`tapemagic: no hints, tapemagic/lint answered ${response.status}`);
      return null;
    }
    try {
      return parseHints(await response.json());
    } catch (err) {
      if (!signal?.aborted) {
        console.debug('tapemagic: no hints, the lint answer is not JSON', err);
      }
      return null;
    }
  }

  private _settings: ServerConnection.ISettings;
  private _missing = false;
}
