/**
 * The weights a finding leaves without a gradient and its path to the loss. When several
 * findings repeat the same list or path, it is shown once above the cards
 * ({@link sharedSummary}) and each card that shares it gets a short reference instead.
 */
import { trans } from '../i18n';
import { ChainStep, ownCut, SharedParts } from '../model/shared';
import { Finding } from '../model/types';
import { h } from './dom';

/** The weights as code chips. */
export function weightChips(vars: readonly string[]): HTMLElement {
  const chips = h('span', { class: 'jp-tapemagic-vars' });
  for (const v of vars) {
    chips.append(h('code', { class: 'jp-tapemagic-var', attrs: { title: v } }, v));
  }
  return chips;
}

function noGradientFor(n: number): string {
  return trans()._n('No gradient for %1 weight: ', 'No gradient for %1 weights: ', n, n);
}

function stepView(step: ChainStep): HTMLElement {
  return h('span', { class: step.cut ? 'jp-tapemagic-step jp-mod-cut' : 'jp-tapemagic-step' }, step.cut ? `✂ ${step.label}` : step.label);
}

/** The path weights → … → loss, cuts marked ✂. */
export function chainView(chain: readonly ChainStep[]): HTMLElement {
  const box = h('div', { class: 'jp-tapemagic-chain' });
  chain.forEach((step, i) => {
    if (i) {
      box.append(h('span', { class: 'jp-tapemagic-arrow' }, ' → '));
    }
    box.append(stepView(step));
  });
  return box;
}

/**
 * The shared weight lists and paths, once each, above the cards; null when no two findings
 * share anything.
 */
export function sharedSummary(shared: SharedParts): HTMLElement | null {
  if (!shared.variables.length && !shared.chains.length) {
    return null;
  }
  const box = h('div', { class: 'jp-tapemagic-shared' });
  for (const part of shared.variables) {
    const n = part.value.length;
    box.append(
      h(
        'div',
        { class: 'jp-tapemagic-affected', attrs: { 'data-shared': 'variables' } },
        noGradientFor(n),
        weightChips(part.value),
        h('span', { class: 'jp-tapemagic-muted' }, trans()._n(' (%1 finding)', ' (%1 findings below)', part.findings.length, part.findings.length))
      )
    );
  }
  for (const part of shared.chains) {
    const chain = chainView(part.value);
    chain.prepend(h('span', { class: 'jp-tapemagic-shared-label' }, trans().__('Path to the loss: ')));
    chain.setAttribute('data-shared', 'chain');
    box.append(chain);
  }
  return box;
}

/** A card's weights and path: in full, or a short reference to the shared ones above. */
export function affectedView(f: Finding, shared?: SharedParts): HTMLElement[] {
  const out: HTMLElement[] = [];
  const vars = f.variables ?? [];
  if (vars.length) {
    const n = vars.length;
    if (shared?.variablesOf.has(f.id)) {
      const ref = h(
        'div',
        { class: 'jp-tapemagic-affected jp-tapemagic-shared-ref', attrs: { title: vars.join(', ') } },
        trans()._n('No gradient for the same %1 weight (listed above)', 'No gradient for the same %1 weights (listed above)', n, n)
      );
      out.push(ref);
    } else {
      out.push(h('div', { class: 'jp-tapemagic-affected' }, noGradientFor(n), weightChips(vars)));
    }
  }
  const chain = f.chain ?? [];
  if (chain.length) {
    if (shared?.chainOf.has(f.id)) {
      const cut = ownCut(f, chain);
      out.push(
        cut
          ? h('div', { class: 'jp-tapemagic-chain jp-tapemagic-shared-ref' }, trans().__('Cut on the path above: '), stepView(cut))
          : h('div', { class: 'jp-tapemagic-chain jp-tapemagic-shared-ref' }, trans().__('Same path to the loss as above'))
      );
    } else {
      out.push(chainView(chain));
    }
  }
  return out;
}
