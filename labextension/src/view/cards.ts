/**
 * One card per finding: rule code and name, message, place and source line, affected weights,
 * the fix and its applicability, and an "Explain" toggle with the rule's catalog documentation.
 */
import { trans } from '../i18n';
import { findRule, ruleDoc, ruleName } from '../model/catalog';
import { canApply, FixPreview, fixPreview, FixState, verifiedState } from '../model/fixes';
import { locationLabel } from '../model/report';
import { Finding, Fix, Report } from '../model/types';
import { SharedParts } from '../model/shared';
import { affectedView } from './affected';
import { button, h, richText } from './dom';
import { ApplyHandler, fixButtons, setFixState } from './fixView';

/** Options of {@link findingCard}. */
export interface CardOptions {
  /** Called when the user asks to go to the finding's line ("Go to line" button). */
  onReveal?: (finding: Finding) => void;
  /** A click anywhere on the card goes to the line too (the side panel). */
  clickable?: boolean;
  /** Weight lists and paths shown once above the cards: the card refers to them briefly. */
  shared?: SharedParts;
  /** Offer "Apply" and "Apply and re-run" on a fix with edits (not display-only). */
  onApply?: ApplyHandler;
  /** Whether the fix can be applied now; without it the buttons start enabled. */
  fixState?: (finding: Finding) => FixState;
}

function applicabilityText(kind: string): string {
  const t = trans();
  switch (kind) {
    case 'safe':
      return t.__('safe fix');
    case 'unsafe':
      return t.__('unsafe fix: review before applying');
    case 'display-only':
      return t.__('suggestion only');
    default:
      return kind;
  }
}

function severityText(severity: string): string {
  const t = trans();
  return severity === 'error' ? t.__('error') : severity === 'warning' ? t.__('warning') : t.__('info');
}

function sectionTitle(heading: string): string {
  const t = trans();
  const titles: Record<string, string> = {
    'What it does': t.__('What it does'),
    Why: t.__('Why'),
    'Known problems': t.__('Known problems'),
    Fix: t.__('Fix'),
    Example: t.__('Example'),
    'Use instead': t.__('Use instead')
  };
  return titles[heading] ?? heading;
}

/** The "Explain" body: the rule's documentation from the bundled catalog. */
export function explainView(code: string): HTMLElement {
  const doc = ruleDoc(code);
  const box = h('div', { class: 'jp-tapemagic-explain' });
  if (!doc.rule) {
    box.append(h('p', {}, trans().__('Unknown rule %1: update the tapemagic JupyterLab extension.', code)));
    return box;
  }
  box.append(h('div', { class: 'jp-tapemagic-explain-title' }, `${code} ${ruleName(doc.rule)}`));
  for (const [heading, text] of doc.sections) {
    const isCode = heading === 'Example' || heading === 'Use instead';
    box.append(
      h('div', { class: 'jp-tapemagic-explain-heading' }, sectionTitle(heading)),
      isCode ? h('pre', { class: 'jp-tapemagic-code' }, text) : h('p', {}, richText(text))
    );
  }
  if (doc.references.length) {
    const list = h('ul', { class: 'jp-tapemagic-refs' });
    for (const ref of doc.references) {
      list.append(h('li', {}, h('a', { attrs: { href: ref.url, target: '_blank', rel: 'noopener noreferrer' } }, ref.title)));
    }
    box.append(h('div', { class: 'jp-tapemagic-explain-heading' }, trans().__('References')), list);
  }
  return box;
}

/** Build the card of one finding. */
export function findingCard(report: Report, f: Finding, options: CardOptions = {}): HTMLElement {
  const name = f.name || ruleName(findRule(f.rule));
  const place = locationLabel(report, f);
  const header = h(
    'div',
    { class: 'jp-tapemagic-card-header' },
    h('span', { class: `jp-tapemagic-severity jp-mod-${f.severity}` }, severityText(f.severity)),
    h('span', { class: 'jp-tapemagic-code-badge' }, f.rule),
    h('span', { class: 'jp-tapemagic-rule-name' }, name),
    f.primary === false ? h('span', { class: 'jp-tapemagic-secondary' }, trans().__('next cut')) : null,
    place ? h('span', { class: 'jp-tapemagic-place' }, place) : null
  );
  const card = h('div', { class: `jp-tapemagic-card jp-mod-${f.severity}`, attrs: { 'data-finding': f.id, 'data-rule': f.rule } }, header);
  card.append(h('div', { class: 'jp-tapemagic-message' }, richText(f.message)));
  const loc = f.location;
  if (loc && loc.source_line) {
    card.append(
      h('pre', { class: 'jp-tapemagic-source' }, h('span', { class: 'jp-tapemagic-lineno' }, `${loc.line}`), loc.source_line)
    );
  }
  card.append(...affectedView(f, options.shared));
  if (f.fix) {
    const fix = h(
      'div',
      { class: `jp-tapemagic-fix jp-mod-${f.fix.applicability}` },
      h('span', { class: 'jp-tapemagic-fix-label' }, trans().__('Fix: ')),
      h('span', { class: 'jp-tapemagic-fix-title' }, richText(f.fix.title)),
      h('span', { class: 'jp-tapemagic-applicability' }, applicabilityText(f.fix.applicability)),
      // `fix.verified`: the kernel re-ran the cell with the fix (null: not tried)
      verifiedView(f.fix),
      // what the re-run showed (what is still cut, or the new error): text, never markup
      f.fix.verification
        ? h('span', { class: 'jp-tapemagic-verification' }, f.fix.verification)
        : null
    );
    const preview = fixPreview(report, f);
    if (preview) {
      fix.append(diffView(preview));
    }
    card.append(fix);
  }
  const actions = h('div', { class: 'jp-tapemagic-card-actions' });
  let explain: HTMLElement | null = null;
  const toggle = button('jp-tapemagic-explain-button', trans().__('Explain'), () => {
    if (explain) {
      explain.remove();
      explain = null;
      toggle.setAttribute('aria-expanded', 'false');
    } else {
      explain = explainView(f.rule);
      card.append(explain);
      toggle.setAttribute('aria-expanded', 'true');
    }
  });
  toggle.setAttribute('aria-expanded', 'false');
  actions.append(toggle);
  const reveal = options.onReveal;
  if (reveal && loc) {
    const go = button('jp-tapemagic-reveal-button', trans().__('Go to line %1', loc.line), () => reveal(f));
    go.setAttribute('title', trans().__('Select the cell and put the cursor on line %1', loc.line));
    actions.append(go);
  }
  if (reveal && loc && options.clickable) {
    card.classList.add('jp-mod-clickable');
    card.addEventListener('click', ev => {
      if (!(ev.target as Element).closest('a, button, .jp-tapemagic-explain')) {
        reveal(f);
      }
    });
  }
  if (options.onApply && canApply(f)) {
    actions.append(fixButtons(f, options.onApply));
  }
  card.append(actions);
  if (options.fixState) {
    setFixState(card, options.fixState(f));
  }
  return card;
}

/** What the re-run showed; see `verifiedState` (never a plain "verified" for a fix that changes values). */
export function verifiedView(fix: Fix): HTMLElement | null {
  const state = verifiedState(fix);
  if (state === null) {
    return null;
  }
  const text = {
    yes: trans().__('verified'),
    changes: trans().__('verified, changes values'),
    no: trans().__('not verified')
  }[state];
  return h('span', { class: `jp-tapemagic-verified jp-mod-${state}` }, text);
}

/**
 * The edit a fix would make, next to its Apply button: the lines it removes (-) and adds (+),
 * numbered; lines it leaves as they were at either end are shown once. Text nodes only.
 */
export function diffView(d: FixPreview): HTMLElement {
  const { before, after } = d;
  let head = 0;
  while (head < Math.min(before.length, after.length) - 1 && before[head] === after[head]) {
    head++;
  }
  let tail = 0;
  while (tail < Math.min(before.length, after.length) - head - 1 && before[before.length - 1 - tail] === after[after.length - 1 - tail]) {
    tail++;
  }
  const rows: Array<[string, number, string, string]> = [];
  for (let k = 0; k < head; k++) {
    rows.push(['', d.first + k, ' ', before[k]]);
  }
  for (let k = head; k < before.length - tail; k++) {
    rows.push(['jp-mod-del', d.first + k, '-', before[k]]);
  }
  for (let k = head; k < after.length - tail; k++) {
    rows.push(['jp-mod-add', d.first + k, '+', after[k]]);
  }
  for (let k = before.length - tail; k < before.length; k++) {
    rows.push(['', d.first + k, ' ', before[k]]);
  }
  const pre = h('pre', { class: 'jp-tapemagic-diff', attrs: { 'aria-label': trans().__('The edit this fix makes') } });
  for (const [cls, n, mark, text] of rows) {
    pre.append(h('span', { class: cls }, h('span', { class: 'jp-tapemagic-lineno' }, String(n)), `${mark} ${text}`));
  }
  return pre;
}
