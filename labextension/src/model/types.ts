/**
 * The front end's names for the parts of the report and the catalog.
 *
 * Every type here is derived from the types GENERATED from the Python package's JSON Schemas
 * (`src/_report.ts`, `src/_catalog.ts`), so the TypeScript side never restates the contract.
 */
import type { ReportPayload } from '../_report';
import type { CatalogFile } from '../_catalog';

/** A tapemagic report (the `application/vnd.tapemagic.report.v1+json` payload). */
export type Report = ReportPayload;
/** One finding of a report. */
export type Finding = Report['findings'][number];
/** Where a finding is: 1-based lines relative to the cell as the editor shows it, 0-based columns. */
export type Location = NonNullable<Finding['location']>;
/** A quick fix attached to a finding. */
export type Fix = NonNullable<Finding['fix']>;
/** One text edit of a quick fix (report coordinates). */
export type Edit = NonNullable<Fix['edits']>[number];
/** A node of the collapsed loss→weights graph. */
export type GraphNode = NonNullable<Report['graph']['nodes']>[number];
/** An edge of the collapsed loss→weights graph. */
export type GraphEdge = NonNullable<Report['graph']['edges']>[number];
/** The shared rule catalog file. */
export type Catalog = CatalogFile;
/** One rule of the catalog. */
export type Rule = Catalog['rules'][number];
/** Finding severities. */
export type Severity = Finding['severity'];

/** The MIME type of a tapemagic report. */
export const MIME_TYPE = 'application/vnd.tapemagic.report.v1+json';
/** The `schema` value this front end reads. */
export const SCHEMA_ID = 'tapemagic.report/1';
/**
 * The DOM event (bubbling, `detail: {findingId}`) an output-area card's "Go to line" button
 * sends; the tracker plugin answers it. The renderer cannot reach the notebook itself.
 */
export const REVEAL_EVENT = 'jp-tapemagic-reveal';
/** Class on `document.body` while a plugin answers {@link REVEAL_EVENT}. */
export const CAN_REVEAL_CLASS = 'jp-tapemagic-can-reveal';
/**
 * The DOM event (bubbling, `detail: {findingId, rerun}`) an output-area card's "Apply" and
 * "Apply and re-run" buttons send; the tracker plugin answers it.
 */
export const APPLY_EVENT = 'jp-tapemagic-apply';
/** Class on `document.body` while a plugin answers {@link APPLY_EVENT}. */
export const CAN_APPLY_CLASS = 'jp-tapemagic-can-apply';
/** The DOM event (bubbling) the output renderer sends once it drew a report. */
export const RENDERED_EVENT = 'jp-tapemagic-rendered';
/**
 * The DOM event (bubbling) an output-area report's "Open the panel" button sends; the panel
 * plugin answers it by showing the side panel.
 */
export const OPEN_PANEL_EVENT = 'jp-tapemagic-open-panel';
/**
 * Class on `document.body` where the side panel is hidden away with no tab in sight (Notebook
 * 7's right sidebar, under View → Right Sidebar): output-area reports then point to it.
 */
export const POINT_TO_PANEL_CLASS = 'jp-tapemagic-point-to-panel';
/** Class on `document.body` while the side panel is shown. */
export const PANEL_SHOWN_CLASS = 'jp-tapemagic-panel-shown';
