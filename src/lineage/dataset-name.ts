/** A dataset as OpenLineage names it: a namespace (where) and a name (what). */
export interface DatasetName {
  readonly namespace: string;
  readonly name: string;
}
