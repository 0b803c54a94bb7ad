/**
 * Hints as CodeMirror lint diagnostics (source `HINT_SOURCE`, severity `hint`): a dotted
 * underline, a "hint" badge in the hover, the rule code and name, the message, and the quick
 * fix as a lint action. Hint strings come from the server and stay text nodes.
 */
import { Action, Diagnostic } from '@codemirror/lint';
import { ChangeDesc, ChangeSet, StateEffect, StateField, Text } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { trans } from '../i18n';
import { TextChange } from '../model/positions';
import { plainText } from '../model/text';
import { h, richText } from '../view/dom';
import { HINT_SOURCE } from './merge';
import { hintChanges, hintRange, IHint, IHintFix } from './model';

/** CSS class of a hint's underline (next to CodeMirror's `cm-lintRange-hint`). */
export const HINT_MARK_CLASS = 'jp-tapemagic-hint';

/** CSS class of a hint's quick-fix button in the lint tooltip. */
export const HINT_ACTION_CLASS = 'jp-tapemagic-hint-action';

/** The user event of a hint's quick fix. */
export const HINT_FIX_EVENT = 'input.tapemagic.hint-fix';

/** Marks the document the current hints were placed on. */
export const hintsPlaced = StateEffect.define<null>();

/** The changes made to the document since the hints were placed (to map a fix's edits). */
export const sinceHints = StateField.define<ChangeDesc>({
  create: state => ChangeSet.empty(state.doc.length).desc,
  update(value, tr) {
    if (tr.effects.some(e => e.is(hintsPlaced))) {
      return ChangeSet.empty(tr.state.doc.length).desc;
    }
    return tr.docChanged ? value.composeDesc(tr.changes.desc) : value;
  }
});

/** A hint diagnostic remembers its hint (to be told apart from other sources' diagnostics). */
export interface IHintDiagnostic extends Diagnostic {
  hint: IHint;
}

/** The action's label: the fix title, marked when the fix is unsafe. */
function actionLabel(fix: IHintFix): string {
  return fix.applicability === 'unsafe' ? trans().__('%1 (unsafe)', fix.title) : fix.title;
}

function fixLine(fix: IHintFix): HTMLElement {
  const edits = fix.edits.map(e => e.text).filter(t => t.trim());
  return h(
    'div',
    { class: `jp-tapemagic-lint-fix jp-mod-${fix.applicability}` },
    fix.applicability === 'display-only' ? trans().__('Suggestion: ') : trans().__('Fix: '),
    richText(fix.title),
    fix.applicability === 'unsafe' ? trans().__(' (unsafe: review before applying)') : null,
    edits.length ? h('code', { class: 'jp-tapemagic-inline-code' }, ` → ${edits.join(' … ')}`) : null
  );
}

/** The hover of one hint: badge, rule code and name, message, fix, and what a hint is. */
function hintMessage(hint: IHint): HTMLElement {
  return h(
    'div',
    { class: 'jp-tapemagic-lint-message jp-tapemagic-hint-message' },
    h(
      'div',
      {},
      h('span', { class: 'jp-tapemagic-hint-badge' }, trans().__('hint')),
      h('b', {}, hint.code),
      ` ${hint.name}: `,
      richText(hint.message)
    ),
    hint.fix ? fixLine(hint.fix) : null,
    h(
      'div',
      { class: 'jp-tapemagic-hint-note' },
      trans().__('From the cell text alone; run the cell under %1 to check it.', '%%gradcheck')
    )
  );
}

function fixAction(fix: IHintFix, changes: readonly TextChange[]): Action {
  return {
    name: plainText(actionLabel(fix)),
    markClass: HINT_ACTION_CLASS,
    apply(view: EditorView) {
      const since = view.state.field(sinceHints, false);
      if (!since || changes.some(c => since.touchesRange(c.from, c.to))) {
        return; // the text this fix was made for has changed; the next hints replace it
      }
      view.dispatch({
        changes: changes.map(c => ({ from: since.mapPos(c.from, 1), to: since.mapPos(c.to, -1), insert: c.insert })),
        userEvent: HINT_FIX_EVENT,
        scrollIntoView: true
      });
    }
  };
}

/** The diagnostics of `hints` on `doc`, the document they were computed for. */
export function hintDiagnostics(doc: Text, hints: readonly IHint[]): IHintDiagnostic[] {
  const out: IHintDiagnostic[] = [];
  for (const hint of hints) {
    const range = hintRange(doc, hint);
    if (!range) {
      continue;
    }
    const changes = hintChanges(doc, hint);
    const fix = hint.fix;
    const plain = `${hint.code} ${hint.name} (${trans().__('hint')}): ${hint.message}`;
    out.push({
      hint,
      from: range.from,
      to: range.to,
      severity: 'hint',
      source: HINT_SOURCE,
      markClass: HINT_MARK_CLASS,
      message: plainText(fix ? `${plain}\n${fix.title}` : plain),
      renderMessage: () => hintMessage(hint),
      actions: fix && changes ? [fixAction(fix, changes)] : []
    });
  }
  return out;
}
