/**
 * Parse and check an untrusted report payload before anything renders it.
 *
 * Pure and DOM-free. The payload is validated by ajv against the Python package's own
 * `report.schema.json` (copied to `src/_report.schema.json` by scripts/gen.mjs at build time,
 * JSON Schema draft-07 as the file declares), so the front end checks exactly the contract the
 * kernel side is tested against. A malformed or future-version payload becomes a one-line
 * reason instead of a crash.
 */
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import schema from '../_report.schema.json';
import { Finding, GraphNode, Report, SCHEMA_ID, Severity } from './types';

/** The outcome of {@link parseReport}. */
export type ParseResult =
  | { ok: true; report: Report }
  | { ok: false; schema: string; reason: string };

let validator: ValidateFunction | null = null;

/** The compiled schema, built once on first use (compiling costs a few milliseconds). */
function validate(): ValidateFunction {
  if (!validator) {
    // allErrors off: the first problem is the one said; strict stays on so a schema keyword
    // ajv does not know fails the build's unit tests instead of being ignored.
    validator = new Ajv({ allErrors: false }).compile(schema);
  }
  return validator;
}

/** One line for an ajv error: where (a JSON pointer, `/` for the root) and what. */
export function errorLine(e: ErrorObject): string {
  const where = e.instancePath || '/';
  const extra =
    e.keyword === 'additionalProperties'
      ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})`
      : e.keyword === 'enum'
        ? ` (${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(', ')})`
        : '';
  return `${where} ${e.message ?? 'is invalid'}${extra}`;
}

/**
 * The most specific of ajv's errors: the one deepest in the payload. Under `oneOf` (a location
 * or null) ajv also reports the branches that did not apply ("must be null"); the deepest error
 * is the one about the field that is wrong.
 */
export function deepest(errors: readonly ErrorObject[]): ErrorObject | null {
  let best: ErrorObject | null = null;
  for (const e of errors) {
    if (!best || e.instancePath.split('/').length > best.instancePath.split('/').length) {
      best = e;
    }
  }
  return best;
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Check an untrusted payload and return it as a {@link Report}, or say why it cannot be shown.
 *
 * The `schema` id is looked at first, so a report from a newer tapemagic says which schema it
 * has instead of listing what this one does not know.
 *
 * @param data - the MIME bundle's value, exactly as the kernel sent it.
 */
export function parseReport(data: unknown): ParseResult {
  if (!isObj(data)) {
    return { ok: false, schema: '?', reason: 'not a JSON object' };
  }
  const schemaId = typeof data.schema === 'string' ? data.schema : '?';
  if (schemaId !== SCHEMA_ID) {
    return { ok: false, schema: schemaId, reason: `this extension reads ${SCHEMA_ID}` };
  }
  let check: ValidateFunction;
  try {
    check = validate();
  } catch (err) {
    return { ok: false, schema: schemaId, reason: `schema did not compile: ${String((err as Error)?.message ?? err)}` };
  }
  if (!check(data)) {
    const worst = deepest(check.errors ?? []);
    return { ok: false, schema: schemaId, reason: worst ? errorLine(worst) : 'invalid' };
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

/**
 * The one way the front end names a place: `In[N], line L`, or `line L` when the cell number is
 * unknown. Cards, graph nodes and the panel's layers all go through it.
 */
export function placeLabel(count: number | null | undefined, line: number): string {
  return count === null || count === undefined ? `line ${line}` : `In[${count}], line ${line}`;
}

/**
 * A finding's place as every tapemagic output names it: the location's `where`, which Python
 * writes (`tapemagic/report/places.py`); older reports fall back to its own cell, else the report's.
 */
export function locationLabel(report: Report, f: Finding): string {
  const loc = f.location;
  if (!loc) {
    return '';
  }
  if (loc.where) {
    return loc.where;
  }
  return placeLabel(loc.execution_count ?? report.cell.execution_count, loc.line);
}

/** A graph node's place (`''` when it has none): the node's own cell, else the report's. */
export function nodePlace(report: Report, n: GraphNode): string {
  if (n.where) {
    return n.where;
  }
  if (!n.line) {
    return '';
  }
  return placeLabel(n.execution_count ?? (n.file ? null : report.cell.execution_count), n.line);
}

/**
 * Is `f` at the place of node `n`? The same line of the same cell (or file): a node and a
 * finding with the same line in two cells are at two places.
 */
export function samePlace(report: Report, n: GraphNode, f: Finding): boolean {
  const loc = f.location;
  if (!loc || !n.line || loc.line !== n.line) {
    return false;
  }
  if (n.file && loc.file) {
    return n.file === loc.file;
  }
  const own = report.cell.execution_count;
  return (n.execution_count ?? own) === (loc.execution_count ?? own);
}
