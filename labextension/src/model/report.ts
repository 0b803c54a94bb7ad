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
import { Finding, Report, SCHEMA_ID, Severity } from './types';

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
 * Where a finding is, as every tapemagic output names it (`In[4], line 14`): the location's
 * `where`, which Python writes (`tapemagic/report/places.py`); older reports fall back to
 * `In[N], line L`.
 */
export function locationLabel(report: Report, f: Finding): string {
  const loc = f.location;
  if (!loc) {
    return '';
  }
  if (loc.where) {
    return loc.where;
  }
  const count = loc.execution_count ?? report.cell.execution_count;
  return count === null || count === undefined ? `line ${loc.line}` : `In[${count}], line ${loc.line}`;
}
