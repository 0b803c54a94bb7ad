/**
 * Parts several findings repeat word for word: the weights they leave without a gradient and
 * the path from the weights to the loss. The view shows each such part once, above the cards,
 * and a short reference in every card that shares it.
 *
 * Pure.
 */
import { Finding } from './types';

/** One step of a finding's path. */
export type ChainStep = NonNullable<Finding['chain']>[number];

/** A weight list or path shared by two findings or more. */
export interface SharedPart<T> {
  /** Stable key of the shared value (the same for every finding that shares it). */
  key: string;
  /** The shared value. */
  value: T;
  /** Ids of the findings that share it, in report order. */
  findings: string[];
}

/** The shared parts of a report's findings. */
export interface SharedParts {
  variables: Array<SharedPart<string[]>>;
  chains: Array<SharedPart<ChainStep[]>>;
  /** finding id → key of the weight list it shares (absent: its list is its own). */
  variablesOf: Map<string, string>;
  /** finding id → key of the path it shares (absent: its path is its own). */
  chainOf: Map<string, string>;
}

/** Key of a weight list: the same weights in any order share it. */
export function variablesKey(vars: readonly string[]): string {
  return JSON.stringify([...vars].sort());
}

/** Key of a path: the same steps in the same order. */
export function chainKey(chain: readonly ChainStep[]): string {
  return JSON.stringify(chain.map(s => [s.label, s.cut, s.line ?? null, s.execution_count ?? null]));
}

function collect<T>(
  findings: readonly Finding[],
  get: (f: Finding) => T[] | undefined,
  key: (v: T[]) => string
): { parts: Array<SharedPart<T[]>>; of: Map<string, string> } {
  const byKey = new Map<string, SharedPart<T[]>>();
  for (const f of findings) {
    const v = get(f);
    if (!v?.length) {
      continue;
    }
    const k = key(v);
    const part = byKey.get(k) ?? { key: k, value: v, findings: [] };
    part.findings.push(f.id);
    byKey.set(k, part);
  }
  const parts = [...byKey.values()].filter(p => p.findings.length > 1);
  const of = new Map<string, string>();
  for (const p of parts) {
    p.findings.forEach(id => of.set(id, p.key));
  }
  return { parts, of };
}

/** Find the weight lists and paths that two findings or more repeat. */
export function sharedParts(findings: readonly Finding[]): SharedParts {
  const vars = collect(findings, f => f.variables, variablesKey);
  const chains = collect(findings, f => f.chain, chainKey);
  return { variables: vars.parts, chains: chains.parts, variablesOf: vars.of, chainOf: chains.of };
}

/** The cut of a shared path that is this finding's own (a cut step on the finding's line). */
export function ownCut(f: Finding, chain: readonly ChainStep[]): ChainStep | null {
  const line = f.location?.line;
  const cuts = chain.filter(s => s.cut);
  return cuts.find(s => line !== undefined && s.line === line) ?? null;
}
