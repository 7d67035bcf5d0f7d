import { createFakeDestination, createFakeStore, type FakeDestination, type FakeStore } from '../support/fake-destination.ts';
import { normalizeRow } from './normalize.ts';
import { runConformanceSuite } from './suite.ts';

const stores = new Map<string, FakeStore>();

runConformanceSuite({
  name: 'fake',
  async create(schema) {
    if (!stores.has(schema)) stores.set(schema, createFakeStore());
    return createFakeDestination({ store: stores.get(schema), schema });
  },
  async readRows(destination, _schema, table) {
    return (destination as FakeDestination).rows(table.name).map((row) => normalizeRow(table, row));
  },
  async cleanup(schema) {
    stores.delete(schema);
  },
});
