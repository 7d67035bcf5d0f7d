/** A table or view and its fields as the stand-in stores and serves them: the REST resources `tables.get` returns. */
export interface FieldResource {
  name: string;
  type: string;
  mode?: string;
  description?: string;
}

export interface TableResource {
  tableReference: { projectId: string; datasetId: string; tableId: string };
  /** `TABLE` or `VIEW`, as `tables.get` says. */
  type?: string;
  schema: { fields: FieldResource[] };
  description?: string;
  /** A view's standard-SQL query. */
  view?: { query: string; useLegacySql?: boolean };
  timePartitioning?: { type: string; field?: string };
  clustering?: { fields: string[] };
  expirationTime?: string;
}
