/**
 * The fix loop's pieces of a card: "Apply" and "Apply and re-run" buttons with a line that says
 * why they are disabled, and the before/after line a re-run adds to the new report.
 */
import { trans } from '../i18n';
import { FixOutcome, FixState, StaleReason } from '../model/fixes';
import { Finding } from '../model/types';
import { button, h } from './dom';

/** Called by a card's fix buttons; resolves to '' on success, else to the reason shown. */
export type ApplyHandler = (f: Finding, rerun: boolean) => Promise<string> | void;

/** The translated reason a fix cannot be applied now. */
export function staleText(reason: StaleReason): string {
  switch (reason) {
    case 'changed':
      return trans().__('Not applicable: the cell changed where this fix edits it. Re-run the cell for a fresh report.');
    case 'unplaceable':
      return trans().__('Not applicable: the lines this fix edits are no longer in the cell. Re-run the cell for a fresh report.');
    default:
      return trans().__('Not applicable: the cell this fix edits is not in the notebook.');
  }
}

/** The buttons of a fix that has edits (the caller checked `canApply`). */
export function fixButtons(f: Finding, onApply: ApplyHandler): HTMLElement {
  const unsafe = f.fix?.applicability === 'unsafe';
  const note = h('span', { class: 'jp-tapemagic-apply-note', attrs: { role: 'status' } });
  const box = h('span', { class: 'jp-tapemagic-apply-box' });
  const run = (rerun: boolean): void => {
    const busy = Array.from(box.querySelectorAll('button'));
    busy.forEach(b => (b.disabled = true));
    note.textContent = rerun ? trans().__('Applying and re-running…') : '';
    void Promise.resolve(onApply(f, rerun)).then(
      why => {
        note.textContent = why || (rerun ? '' : trans().__('Applied: Ctrl-Z in the cell undoes it.'));
        // the tracker may have disabled them meanwhile (the cell changed): keep that
        busy.forEach(b => (b.disabled = !!why || box.classList.contains('jp-mod-stale')));
      },
      (err: unknown) => {
        note.textContent = String((err as Error)?.message ?? err);
      }
    );
  };
  const apply = button('jp-tapemagic-apply', unsafe ? trans().__('Apply (unsafe)') : trans().__('Apply'), () => run(false));
  const again = button('jp-tapemagic-apply-rerun', trans().__('Apply and re-run'), () => run(true));
  const tip = unsafe
    ? trans().__('Unsafe fix: it may change what the cell computes. Review the edit; Ctrl-Z undoes it.')
    : trans().__('Edit the cell; Ctrl-Z undoes it.');
  apply.setAttribute('title', tip);
  again.setAttribute('title', trans().__('Apply, then run the cell with %%gradcheck and compare the reports'));
  box.append(apply, again, note);
  return box;
}

/** Enable or disable a card's fix buttons for the cell as it is now, saying why when disabled. */
export function setFixState(card: Element, st: FixState): void {
  const box = card.querySelector('.jp-tapemagic-apply-box');
  if (!box) {
    return;
  }
  const stale = st.kind !== 'ready';
  box.querySelectorAll('button').forEach(b => (b.disabled = stale));
  box.classList.toggle('jp-mod-stale', stale);
  const note = box.querySelector('.jp-tapemagic-apply-note');
  if (note && (stale || note.getAttribute('data-stale') === 'true')) {
    note.textContent = st.kind === 'stale' ? staleText(st.reason) : '';
  }
  note?.setAttribute('data-stale', String(stale));
}

function verdictText(v: string): string {
  const t = trans();
  const names: Record<string, string> = {
    connected: t.__('connected'),
    severed: t.__('severed'),
    zero: t.__('zero'),
    unexplained: t.__('unexplained'),
    absent: t.__('not in the report')
  };
  return names[v] ?? v;
}

/**
 * "4 of 4 weights now get a gradient", with each weight's verdict before → after (named as the
 * user saw it, with its new name when the re-run rebuilt the model). The count is of the same
 * bullets, so it never says "all" above a weight that is not in the new report.
 */
export function outcomeView(o: FixOutcome): HTMLElement {
  const all = o.total > 0 && o.connected === o.total;
  let line = trans()._n(
    'After the fix: %2 of %1 weight now gets a gradient',
    'After the fix: %2 of %1 weights now get a gradient',
    o.total,
    o.total,
    o.connected
  );
  if (o.absent > 0) {
    line += trans()._n('; %1 is not in the new report', '; %1 are not in the new report', o.absent, o.absent);
  }
  const list = h('ul', { class: 'jp-tapemagic-outcome-list' });
  for (const c of o.changes) {
    list.append(
      h(
        'li',
        { attrs: { 'data-variable': c.variable, 'data-after': c.after } },
        h('code', { class: 'jp-tapemagic-inline-code' }, c.variable),
        trans().__(': %1 → %2', verdictText(c.before), verdictText(c.after)),
        c.now ? trans().__(' (now %1)', c.now) : null
      )
    );
  }
  return h(
    'div',
    { class: `jp-tapemagic-outcome ${all ? 'jp-mod-ok' : 'jp-mod-partial'}` },
    h('div', { class: 'jp-tapemagic-outcome-line' }, line),
    list
  );
}
