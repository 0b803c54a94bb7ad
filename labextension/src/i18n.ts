/**
 * The translation bundle every label goes through (`trans.__()`), domain `tapemagic`.
 *
 * The plugins and the renderer hand in JupyterLab's translator when they start; until then
 * (and in unit tests) the null translator returns the English text.
 */
import { ITranslator, nullTranslator, TranslationBundle } from '@jupyterlab/translation';

let bundle: TranslationBundle = nullTranslator.load('tapemagic');

/** Use `translator` for every label from now on. */
export function setTranslator(translator: ITranslator | null | undefined): void {
  if (translator) {
    bundle = translator.load('tapemagic');
  }
}

/** The current bundle: `trans().__('text %1', arg)`, `trans()._n(one, many, n)`. */
export function trans(): TranslationBundle {
  return bundle;
}
