/**
 * The shared rule catalog, bundled at build time from `tapemagic/rules/catalog.json`.
 *
 * The front end never restates rule texts: findings carry their formatted message, and the
 * catalog supplies only the extras (the explanation, references) for the "Explain" view.
 */
import catalogJson from '../_catalog.json';
import { Catalog, Rule } from './types';

/** The catalog this build bundles. */
export const CATALOG: Catalog = catalogJson as unknown as Catalog;

/** One reference link of a rule, as the explain view shows it. */
export interface RuleReference {
  title: string;
  url: string;
}

/** What the "Explain" view shows for a rule code. */
export interface RuleDoc {
  code: string;
  /** The rule, or null when this build's catalog does not know the code. */
  rule: Rule | null;
  /** Prose sections in display order: [heading, text]. */
  sections: Array<[string, string]>;
  references: RuleReference[];
}

const byCode = new Map<string, Rule>();
function index(catalog: Catalog): Map<string, Rule> {
  if (byCode.size === 0) {
    for (const r of catalog.rules) {
      byCode.set(r.code, r);
    }
  }
  return byCode;
}

/** Look a rule up by code, following the catalog's redirects. */
export function findRule(code: string, catalog: Catalog = CATALOG): Rule | null {
  const rules = catalog === CATALOG ? index(catalog) : new Map(catalog.rules.map(r => [r.code, r]));
  const redirects = (catalog as { redirects?: Record<string, string | undefined> }).redirects ?? {};
  return rules.get(code) ?? rules.get(redirects[code] ?? '') ?? null;
}

/** Only http(s) links are shown; anything else in a reference is dropped. */
export function safeUrl(url: unknown): string | null {
  return typeof url === 'string' && /^https?:\/\//i.test(url) ? url : null;
}

/** The documentation of a rule for the "Explain" view. */
export function ruleDoc(code: string, catalog: Catalog = CATALOG): RuleDoc {
  const rule = findRule(code, catalog);
  if (!rule) {
    return { code, rule: null, sections: [], references: [] };
  }
  const r = rule as unknown as Record<string, unknown>;
  const sections: Array<[string, string]> = [];
  const add = (heading: string, key: string): void => {
    if (typeof r[key] === 'string' && (r[key] as string).trim()) {
      sections.push([heading, r[key] as string]);
    }
  };
  add('What it does', 'what');
  add('Why', 'why');
  add('Known problems', 'known_problems');
  add('Fix', 'fix_title');
  add('Example', 'example_bad');
  add('Use instead', 'example_good');
  const refs = Array.isArray(r.references) ? (r.references as Array<Record<string, unknown>>) : [];
  const references: RuleReference[] = [];
  for (const ref of refs) {
    const url = safeUrl(ref?.url);
    if (url) {
      references.push({ title: typeof ref.title === 'string' ? ref.title : url, url });
    }
  }
  return { code, rule, sections, references };
}

/** The rule's display name: `name`, else `slug`, else `title`, else ''. */
export function ruleName(rule: Rule | null): string {
  const r = (rule ?? {}) as Record<string, unknown>;
  for (const k of ['name', 'slug', 'title']) {
    if (typeof r[k] === 'string') {
      return r[k] as string;
    }
  }
  return '';
}
