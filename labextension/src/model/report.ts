/**
 * Parse and check an untrusted report payload before anything renders it.
 *
 * Pure and DOM-free. The checks cover every field the front end reads, so a malformed or
 * future-version payload becomes a short message instead of a crash.
 */
import { Finding, Report, SCHEMA_ID, Severity } from './types';

/** The outcome of {@link parseReport}. */
export type ParseResult =
  | { ok: true; report: Report }
  | { ok: false; schema: string; reason: string };

const SEVERITIES: ReadonlySet<string> = new Set(['error', 'warning', 'info']);
const EDGE_STATES: ReadonlySet<string> = new Set(['connected', 'severed', 'zero']);
const APPLICABILITY: ReadonlySet<string> = new Set(['safe', 'unsafe', 'display-only']);

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function isStr(v: unknown): v is string {
  return typeof v === 'string';
}
function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}
function optInt(v: unknown): boolean {
  return v === undefined || v === null || isInt(v);
}
function optStr(v: unknown): boolean {
  return v === undefined || v === null || isStr(v);
}
function strArray(v: unknown): boolean {
  return v === undefined || (Array.isArray(v) && v.every(isStr));
}

/** Return the first problem of a location object, or '' when it is usable. */
function checkLocation(loc: unknown, where: string): string {
  if (loc === undefined || loc === null) {
    return '';
  }
  if (!isObj(loc) || !isInt(loc.line) || loc.line < 1) {
    return `${where}.location.line`;
  }
  for (const k of ['end_line', 'col', 'end_col', 'execution_count']) {
    if (!optInt(loc[k])) {
      return `${where}.location.${k}`;
    }
  }
  if (!optStr(loc.source_line) || !optStr(loc.cell_id) || !optStr(loc.file)) {
    return `${where}.location`;
  }
  return '';
}

/** Return the first problem of a finding, or '' when it is usable. */
function checkFinding(f: unknown, i: number): string {
  const where = `findings[${i}]`;
  if (!isObj(f)) {
    return where;
  }
  for (const k of ['id', 'rule', 'message']) {
    if (!isStr(f[k])) {
      return `${where}.${k}`;
    }
  }
  if (!optStr(f.name) || !optStr(f.cause)) {
    return `${where}.name`;
  }
  if (!isStr(f.severity) || !SEVERITIES.has(f.severity)) {
    return `${where}.severity`;
  }
  if (!strArray(f.variables)) {
    return `${where}.variables`;
  }
  const loc = checkLocation(f.location, where);
  if (loc) {
    return loc;
  }
  if (f.fix !== undefined && f.fix !== null) {
    const fix = f.fix;
    if (!isObj(fix) || !isStr(fix.title) || !isStr(fix.applicability)) {
      return `${where}.fix`;
    }
    if (!APPLICABILITY.has(fix.applicability)) {
      return `${where}.fix.applicability`;
    }
    const edits = fix.edits ?? [];
    if (!Array.isArray(edits)) {
      return `${where}.fix.edits`;
    }
    for (const e of edits) {
      const ok =
        isObj(e) &&
        ['line', 'col', 'end_line', 'end_col'].every(k => isInt(e[k]) && (e[k] as number) >= 0) &&
        isStr(e.text);
      if (!ok) {
        return `${where}.fix.edits`;
      }
    }
  }
  return '';
}

/** Return the first problem of the graph, or '' when it is usable. */
function checkGraph(g: unknown): string {
  if (g === undefined || g === null) {
    return '';
  }
  if (!isObj(g)) {
    return 'graph';
  }
  const nodes = g.nodes ?? [];
  const edges = g.edges ?? [];
  if (!Array.isArray(nodes) || !Array.isArray(edges)) {
    return 'graph';
  }
  for (const n of nodes) {
    if (!isObj(n) || !isStr(n.id) || !isStr(n.kind) || !isStr(n.label) || !optInt(n.line)) {
      return 'graph.nodes';
    }
  }
  for (const e of edges) {
    if (!isObj(e) || !isStr(e.source) || !isStr(e.target) || !isStr(e.state)) {
      return 'graph.edges';
    }
    if (!EDGE_STATES.has(e.state) || !optStr(e.finding) || !optStr(e.label)) {
      return 'graph.edges';
    }
  }
  return '';
}

/**
 * Check an untrusted payload and return it as a {@link Report}, or say why it cannot be shown.
 *
 * @param data - the MIME bundle's value, exactly as the kernel sent it.
 */
export function parseReport(data: unknown): ParseResult {
  if (!isObj(data)) {
    return { ok: false, schema: '?', reason: 'not a JSON object' };
  }
  const schema = isStr(data.schema) ? data.schema : '?';
  if (schema !== SCHEMA_ID) {
    return { ok: false, schema, reason: `this extension reads ${SCHEMA_ID}` };
  }
  const fail = (reason: string): ParseResult => ({ ok: false, schema, reason });
  if (!isStr(data.headline)) {
    return fail('headline');
  }
  if (data.dot !== undefined && !isStr(data.dot)) {
    return fail('dot');
  }
  if (!isObj(data.cell) || !isStr(data.cell.source) || !optInt(data.cell.execution_count)) {
    return fail('cell');
  }
  if (!optStr(data.cell.cell_id)) {
    return fail('cell.cell_id');
  }
  if (!Array.isArray(data.findings)) {
    return fail('findings');
  }
  for (let i = 0; i < data.findings.length; i++) {
    const problem = checkFinding(data.findings[i], i);
    if (problem) {
      return fail(problem);
    }
  }
  const graph = checkGraph(data.graph);
  if (graph) {
    return fail(graph);
  }
  if (!strArray(data.notes)) {
    return fail('notes');
  }
  return { ok: true, report: data as unknown as Report };
}

/** Findings sorted for display: errors first, then by line, then by rule code. */
export function sortedFindings(report: Report): Finding[] {
  const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
  return [...report.findings].sort(
    (a, b) =>
      rank[a.severity] - rank[b.severity] ||
      (a.location?.line ?? 0) - (b.location?.line ?? 0) ||
      a.rule.localeCompare(b.rule)
  );
}

/** `In[N] line L` (or `line L` when the cell number is unknown), as the cards show it. */
export function locationLabel(report: Report, f: Finding): string {
  const loc = f.location;
  if (!loc) {
    return '';
  }
  const count = loc.execution_count ?? report.cell.execution_count;
  return count === null || count === undefined ? `line ${loc.line}` : `In[${count}] line ${loc.line}`;
}
