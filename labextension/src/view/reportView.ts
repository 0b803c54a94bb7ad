/**
 * The whole report: verdict line, graph with legend, one card per finding, notes.
 * Shared by the output renderer and the side panel.
 */
import { trans } from '../i18n';
import { parseReport, sortedFindings } from '../model/report';
import { Finding, Report } from '../model/types';
import { findingCard } from './cards';
import { sharedParts } from '../model/shared';
import { sharedSummary } from './affected';
import { button, h, richText } from './dom';
import { OPEN_PANEL_EVENT } from '../model/types';
import { renderGraph } from './graphView';
import { ApplyHandler, outcomeView } from './fixView';
import { FixOutcome, FixState } from '../model/fixes';

/** Options of {@link reportView}. */
export interface ReportViewOptions {
  /**
   * The side panel's view: a large, pannable, zoomable graph with Keras layers collapsed
   * (severed ones expanded), and a click on a card or a severed edge goes to the line.
   * Otherwise (the output area) only each card's "Go to line" button does.
   */
  panel?: boolean;
  /** Called when the user asks to go to a finding's line. */
  onReveal?: (finding: Finding) => void;
  /** Offer the fix buttons on the cards (see {@link CardOptions}). */
  onApply?: ApplyHandler;
  /** Whether each finding's fix can be applied now. */
  fixState?: (finding: Finding) => FixState;
  /** The before/after line of the "Apply and re-run" that produced this report. */
  outcome?: FixOutcome | null;
}

/** The element shown instead of a report that cannot be rendered. */
export function cannotRender(schema: string, reason: string): HTMLElement {
  return h('div', { class: 'jp-tapemagic-report jp-tapemagic-invalid' }, trans().__('cannot render this report (schema %1: %2)', schema, reason));
}

/** Render a checked report; resolves `done` once the graph is laid out. */
export function reportView(report: Report, options: ReportViewOptions = {}): { node: HTMLElement; done: Promise<void> } {
  const count = report.findings.length;
  const verdict = count ? (report.findings.some(f => f.severity === 'error') ? 'error' : 'warning') : 'ok';
  const node = h(
    'div',
    { class: `jp-tapemagic-report jp-mod-${verdict}` },
    h('div', { class: 'jp-tapemagic-stale-banner' }, trans().__('Stale: the cell changed since this report. Re-run it to update.')),
    h('div', { class: 'jp-tapemagic-headline' }, richText(report.headline || (count ? trans()._n('%1 finding', '%1 findings', count, count) : trans().__('Every weight gets a gradient')))),
    report.mode === 'forced-eager'
      ? h('div', { class: 'jp-tapemagic-mode' }, trans().__('Analysed with tf.function / fit run eagerly.'))
      : null
  );
  if (options.outcome) {
    node.querySelector('.jp-tapemagic-headline')?.after(outcomeView(options.outcome));
  }
  if (count && !options.panel) {
    // shown by the style sheet only where the panel has no tab in sight (Notebook 7)
    const open = button('jp-tapemagic-open-panel', trans().__('Open it'), () =>
      node.dispatchEvent(new Event(OPEN_PANEL_EVENT, { bubbles: true }))
    );
    node.append(
      h('div', { class: 'jp-tapemagic-panel-pointer' }, trans().__('The gradcheck panel shows this graph large, with each layer: View → Right Sidebar. '), open)
    );
  }
  const graph = renderGraph(report, {
    panZoom: options.panel,
    rankdir: 'TB',
    groups: options.panel,
    onReveal: options.onReveal
  });
  node.append(graph.node);
  linkEdgesToCards(report, graph.node, node, options.panel ? options.onReveal : undefined);
  if (count) {
    const findings = sortedFindings(report);
    const shared = sharedParts(findings);
    const cards = h('div', { class: 'jp-tapemagic-cards' });
    for (const f of findings) {
      cards.append(
        findingCard(report, f, { onReveal: options.onReveal, clickable: options.panel, shared, onApply: options.onApply, fixState: options.fixState })
      );
    }
    node.append(...[sharedSummary(shared), cards].filter((n): n is HTMLElement => n !== null));
  }
  if (report.exception) {
    node.append(h('div', { class: 'jp-tapemagic-exception' }, `${report.exception.type}: ${report.exception.message}`, report.exception.explanation ? h('div', {}, richText(report.exception.explanation)) : null));
  }
  for (const note of report.notes ?? []) {
    node.append(h('div', { class: 'jp-tapemagic-note' }, richText(note)));
  }
  return { node, done: graph.done };
}

/**
 * Clicking a severed or zero edge scrolls to (and flashes) the card of the finding behind it,
 * and goes to the finding's line in its cell when `onReveal` is given.
 */
function linkEdgesToCards(report: Report, graph: HTMLElement, root: HTMLElement, onReveal?: (f: Finding) => void): void {
  graph.addEventListener('click', ev => {
    const el = (ev.target as Element).closest('[data-tm]');
    const id = el?.getAttribute('data-tm') ?? '';
    const edge = id.startsWith('e') ? report.graph?.edges?.[Number(id.slice(1))] : undefined;
    if (!edge?.finding) {
      return;
    }
    const card = Array.from(root.querySelectorAll<HTMLElement>('.jp-tapemagic-card')).find(
      c => c.dataset.finding === edge.finding
    );
    if (card) {
      card.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
      card.classList.remove('jp-mod-flash');
      void card.offsetWidth;
      card.classList.add('jp-mod-flash');
    }
    const finding = report.findings.find(f => f.id === edge.finding);
    if (finding?.location && onReveal) {
      onReveal(finding);
    }
  });
}

/** Check an untrusted payload and render it, or the "cannot render" message. */
export function renderPayload(data: unknown, options: ReportViewOptions = {}): { node: HTMLElement; done: Promise<void> } {
  const parsed = parseReport(data);
  if (!parsed.ok) {
    return { node: cannotRender(parsed.schema, parsed.reason), done: Promise.resolve() };
  }
  return reportView(parsed.report, options);
}
