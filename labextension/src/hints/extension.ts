/**
 * The CodeMirror 6 side of the as-you-type hints: after each pause in typing, the cell text
 * goes to the server's lint endpoint and the answer is drawn with CodeMirror's lint machinery,
 * as diagnostics of their own source (`HINT_SOURCE`, merge.ts).
 *
 * CodeMirror keeps one set of diagnostics per editor, shared by every source, so this plugin
 * replaces only its own diagnostics and keeps the others' (the runtime findings); when another
 * source replaces the set without them, the same hints are put back.
 */
import { setDiagnosticsEffect } from '@codemirror/lint';
import { Annotation, Extension, Text } from '@codemirror/state';
import { EditorView, PluginValue, ViewPlugin, ViewUpdate } from '@codemirror/view';
import { ISignal } from '@lumino/signaling';
import { HintClient } from './client';
import { countHints, overlaps, replaceHints, runtimeRanges } from './merge';
import { IHint } from './model';
import { hintDiagnostics, hintsPlaced, IHintDiagnostic, sinceHints } from './render';

/** Milliseconds after the last change before the cell text is sent. */
export const HINT_DELAY_MS = 500;

/** What the editor extension needs to know about its cell; implemented by the plugin. */
export interface IHintHost {
  /** The server that answers. */
  readonly client: HintClient;
  /** Emitted when the reports (and so {@link replaced}) may change. */
  readonly changed: ISignal<unknown, void>;
  /** The notebook path to send, or null when this is not a Python code cell of an open notebook. */
  target(): string | null;
  /** True while a runtime report of this cell, made from its current text, replaces the hints. */
  replaced(): boolean;
}

/** Tags the transactions that place hints (so they are not mistaken for another source's). */
const placingHints = Annotation.define<boolean>();

class HintsPlugin implements PluginValue {
  constructor(private readonly view: EditorView, private readonly host: IHintHost) {
    host.changed.connect(this._onReports, this);
    this._schedule(HINT_DELAY_MS);
  }

  update(u: ViewUpdate): void {
    if (u.docChanged) {
      this._abort?.abort(); // its answer would be for older text
      this._schedule(HINT_DELAY_MS);
      return;
    }
    const foreign = u.transactions.some(
      tr => !tr.annotation(placingHints) && tr.effects.some(e => e.is(setDiagnosticsEffect))
    );
    if (foreign && this._shown && countHints(u.state) < this._shown) {
      this._defer(() => this._showLast()); // no dispatch inside an update
    }
    // (When the text changed, the run scheduled for it draws the hints again.)
  }

  destroy(): void {
    this._destroyed = true;
    clearTimeout(this._timer);
    this._abort?.abort();
    this.host.changed.disconnect(this._onReports, this);
  }

  /** Reports changed: hide the hints if a fresh report replaced them, else re-filter them. */
  private _onReports(): void {
    this._defer(() => {
      if (this.host.replaced()) {
        this._abort?.abort();
        this._show([]);
      } else {
        this._showLast(); // runtime marks may have come or gone
      }
    });
  }

  private _schedule(ms: number): void {
    clearTimeout(this._timer);
    this._timer = setTimeout(() => void this._run(), ms);
  }

  private _defer(fn: () => void): void {
    setTimeout(() => {
      if (!this._destroyed) {
        fn();
      }
    }, 0);
  }

  private async _run(): Promise<void> {
    this._abort?.abort();
    const path = this.host.target();
    if (this._destroyed || path === null || this.host.replaced()) {
      this._show([]);
      return;
    }
    const doc = this.view.state.doc;
    const request = new AbortController();
    this._abort = request;
    const hints = await this.host.client.lint(doc.toString(), path, request.signal);
    if (this._destroyed || request.signal.aborted || this.view.state.doc !== doc) {
      return; // a newer run is scheduled
    }
    this._last = { doc, hints: hints ?? [] };
    this._showLast();
  }

  /**
   * Draw the last answer, if it was for the current text (otherwise the run scheduled for the
   * new text will), except over runtime marks, or nothing while a fresh report replaces it.
   */
  private _showLast(): void {
    const last = this._last;
    if (!last || last.doc !== this.view.state.doc) {
      return;
    }
    if (this.host.replaced()) {
      this._show([]);
      return;
    }
    const runtime = runtimeRanges(this.view.state);
    const shown = hintDiagnostics(last.doc, last.hints).filter(d => !runtime.some(r => overlaps(r, d)));
    this._show(shown);
  }

  /** Replace this source's diagnostics with `hints`, keeping every other source's. */
  private _show(hints: IHintDiagnostic[]): void {
    if (this._destroyed || (!hints.length && !countHints(this.view.state))) {
      this._shown = 0;
      return;
    }
    const spec = replaceHints(this.view.state, hints, [hintsPlaced.of(null)]);
    this.view.dispatch({ ...spec, annotations: placingHints.of(true) });
    this._shown = hints.length;
  }

  private _timer: ReturnType<typeof setTimeout> | undefined = undefined;
  private _abort: AbortController | null = null;
  private _last: { doc: Text; hints: IHint[] } | null = null;
  private _shown = 0;
  private _destroyed = false;
}

/** The editor extension of one notebook code cell. */
export function tapemagicHints(host: IHintHost): Extension {
  return [sinceHints, ViewPlugin.define(view => new HintsPlugin(view, host))];
}
