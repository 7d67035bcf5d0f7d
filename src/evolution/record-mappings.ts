/**
 * How each table's rows map the records they come from, as schema evolution needs to know it
 * (docs/served-contract.md#what-counts-as-new): which stream's declared record feeds the
 * table, where that record sits inside the row's `_raw`, the fields its stream already maps
 * (each to the column of its name, or flattened or split: `metrics`, `counts`, `providers`,
 * `competitors`, `meta` with its version tags, `unavailable_reasons` and `data_quality`), and the
 * objects whose keys are columns. A declared field outside this list is new.
 */
import {
  COMPETITOR_COUNT_KEYS,
  COMPETITOR_METRIC_KEYS,
  COUNT_KEYS,
  METRIC_KEYS,
  PROVIDER_COUNT_KEYS,
} from '../../schemas/keys.ts';
import type { TableSpec } from '../destination/table-spec.ts';
import type { StreamName } from '../streams/registry.ts';
import {
  analyticsCompetitorsTable,
  analyticsHistoryTable,
  analyticsLatestTable,
  analyticsProvidersTable,
  citationsTable,
  mentionsTable,
  websitesTable,
} from '../tables/index.ts';

/** An object of the record whose keys are columns of the table (`metrics`, `counts`): the keys the contract gives a column. */
export type KeyedObjects = Readonly<Record<string, readonly string[]>>;

export interface RecordMapping {
  readonly table: TableSpec;
  readonly stream: StreamName;
  /** The array field of the stream's record whose items are this table's records (`providers`), if any. */
  readonly items?: string;
  /** Where the record is in the row's `_raw`: `['data']` for a snapshot body, `[]` for a record kept whole. */
  readonly rawPath: readonly string[];
  /** Fields the stream maps already; those of `keyed` included. */
  readonly mapped: readonly string[];
  readonly keyed: KeyedObjects;
}

const FEED_KEY_FIELDS = ['website_id', 'analysis_id', 'observed_at', 'available_at', 'provider'];
const SNAPSHOT_FIELDS = ['website_id', 'analysis_id', 'as_of', 'available_at', 'metrics', 'counts'];

export const RECORD_MAPPINGS: readonly RecordMapping[] = [
  {
    table: websitesTable,
    stream: 'websites',
    rawPath: [],
    mapped: ['id', 'domain_url', 'country', 'language', 'industry_niche', 'last_analysis_at'],
    keyed: {},
  },
  {
    table: analyticsLatestTable,
    stream: 'analytics',
    rawPath: ['data'],
    mapped: [...SNAPSHOT_FIELDS, 'providers', 'competitors'],
    keyed: { metrics: METRIC_KEYS, counts: COUNT_KEYS },
  },
  {
    table: analyticsProvidersTable,
    stream: 'analytics',
    items: 'providers',
    rawPath: [],
    mapped: ['provider', 'metrics', 'counts', 'unavailable_reasons'],
    keyed: { metrics: METRIC_KEYS, counts: PROVIDER_COUNT_KEYS },
  },
  {
    table: analyticsCompetitorsTable,
    stream: 'analytics',
    items: 'competitors',
    rawPath: [],
    mapped: ['competitor_domain', 'metrics', 'counts', 'unavailable_reasons'],
    keyed: { metrics: COMPETITOR_METRIC_KEYS, counts: COMPETITOR_COUNT_KEYS },
  },
  {
    table: analyticsHistoryTable,
    stream: 'analytics_history',
    rawPath: [],
    mapped: [...SNAPSHOT_FIELDS, 'meta'],
    keyed: { metrics: METRIC_KEYS, counts: COUNT_KEYS },
  },
  {
    table: mentionsTable,
    stream: 'mentions',
    rawPath: [],
    mapped: [
      'id',
      ...FEED_KEY_FIELDS,
      'sentence_text',
      'sentence_text_truncated',
      'position_in_response',
      'sentiment',
      'mention_spans',
    ],
    keyed: {},
  },
  { table: citationsTable, stream: 'citations', rawPath: [], mapped: ['id', ...FEED_KEY_FIELDS], keyed: {} },
];
