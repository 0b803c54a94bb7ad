/**
 * The side panel's list of Keras layers under the graph: one toggle per layer, expanded ones
 * show the layer's weights (cut or not) and the findings whose cut lies in the layer or at its
 * place (cell and line). Only a layer on a severed path is tagged so.
 */
import { trans } from '../i18n';
import { LayerGroup } from '../model/groups';
import { Finding } from '../model/types';
import { button, h, richText } from './dom';

/** Options of {@link layersView}. */
export interface LayersOptions {
  /** Called when the user expands or collapses a layer. */
  onToggle: (id: string) => void;
  /** Called when the user clicks a finding listed under a layer. */
  onReveal?: (finding: Finding) => void;
}

/** The layers list; `refresh()` redraws it after `expanded` changed. */
export function layersView(
  groups: readonly LayerGroup[],
  expanded: ReadonlySet<string>,
  options: LayersOptions
): { node: HTMLElement; refresh: () => void } {
  const node = h('div', { class: 'jp-tapemagic-layers', attrs: { 'aria-label': trans().__('Keras layers') } });
  const refresh = (): void => {
    node.replaceChildren(
      h('div', { class: 'jp-tapemagic-layers-title' }, trans().__('Keras layers (click a layer, here or in the graph, to expand it)'))
    );
    for (const g of groups) {
      node.append(layerRow(g, expanded.has(g.id), options));
    }
  };
  refresh();
  return { node, refresh };
}

function layerRow(g: LayerGroup, open: boolean, options: LayersOptions): HTMLElement {
  const t = trans();
  const n = g.weights.length;
  const label = [
    `${open ? '▾' : '▸'} ${g.node.label}`,
    g.place,
    t._n('%1 weight', '%1 weights', n, n)
  ].filter(Boolean).join(' · ');
  const toggle = button('jp-tapemagic-layer-toggle', label, () => options.onToggle(g.id));
  toggle.setAttribute('aria-expanded', String(open));
  const row = h(
    'div',
    { class: `jp-tapemagic-layer${g.severed ? ' jp-mod-severed' : ''}${open ? ' jp-mod-expanded' : ''}`, attrs: { 'data-group': g.id } },
    toggle,
    g.severed ? h('span', { class: 'jp-tapemagic-layer-cut' }, t.__('✂ on a severed path')) : null
  );
  if (!open) {
    return row;
  }
  const cut = new Set(g.cutWeights);
  const weights = h('ul', { class: 'jp-tapemagic-layer-weights' });
  for (const w of g.weights) {
    const isCut = cut.has(w.label);
    weights.append(
      h(
        'li',
        { class: `jp-tapemagic-layer-weight${isCut ? ' jp-mod-cut' : ''}` },
        h('code', { class: 'jp-tapemagic-var', attrs: { title: w.label } }, w.label),
        ' ',
        h('span', { class: 'jp-tapemagic-muted' }, isCut ? t.__('no gradient') : t.__('gets a gradient'))
      )
    );
  }
  if (!n) {
    weights.append(h('li', { class: 'jp-tapemagic-muted' }, t.__('No weights of this layer are in the report.')));
  }
  row.append(weights);
  if (!g.findings.length) {
    row.append(
      h('div', { class: 'jp-tapemagic-layer-findings jp-tapemagic-muted' }, g.place ? t.__('No finding in this layer or at %1.', g.place) : t.__('No finding in this layer.'))
    );
    return row;
  }
  const list = h('ul', { class: 'jp-tapemagic-layer-findings' });
  for (const f of g.findings) {
    const item = h('li', { class: 'jp-tapemagic-layer-finding', attrs: { 'data-finding': f.id } }, h('b', {}, f.rule), ' ', richText(f.message));
    const reveal = options.onReveal;
    if (reveal) {
      item.classList.add('jp-mod-clickable');
      item.addEventListener('click', () => reveal(f));
    }
    list.append(item);
  }
  row.append(list);
  return row;
}
