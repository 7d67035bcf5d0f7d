/**
 * Every `yaml` block in README.md and docs/ is a whole config that the real loader accepts,
 * with its `${VAR}`s set to dummies and its `api_key_file` pointed at a dummy key; blocks
 * marked `yaml fragment` (snippets, Kubernetes, dbt) are not loaded.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { dummyEnv, referencedVariables, withDummyKeyFile } from '../config/config-files.ts';
import { type DocFile, docFiles, type Fence, fences } from './markdown.ts';

const configBlocks = (files: readonly DocFile[]): Fence[] =>
  files.flatMap(fences).filter((f) => f.lang === 'yaml' && !f.words.includes('fragment'));

/** Why each config block does not load (empty when all do). */
async function configProblems(files: readonly DocFile[]): Promise<string[]> {
  const problems: string[] = [];
  for (const fence of configBlocks(files)) {
    const file = await withDummyKeyFile(fence.body);
    const error = await loadConfig(file, dummyEnv(referencedVariables(fence.body)), silentLogger).then(
      () => undefined,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    // The loader names the temporary file; the block's own place says more.
    if (error !== undefined) problems.push(`${fence.where}: ${error.replaceAll(`${file}:`, 'line ')}`);
  }
  return problems;
}

describe('YAML config blocks in the docs', () => {
  it('there are some, and fragments are marked', () => {
    expect(configBlocks(docFiles()).length).toBeGreaterThan(8);
  });

  it('every one loads with the config loader', async () => {
    expect(await configProblems(docFiles())).toEqual([]);
  });

  it('fails on an unknown key, a literal secret and a missing source; skips a fragment', async () => {
    const broken: DocFile = {
      name: 'broken.md',
      text: [
        '```yaml',
        'source: { base_url: https://api.example.com, api_key: "${AIVIS_API_KEY}" }',
        'destination: { type: postgres, url: "${DATABASE_URL}", schema: aivis, shema: x }',
        '```',
        '```yaml',
        'source:',
        '  base_url: https://api.example.com',
        '  api_key: sk_live_written_into_the_file',
        '```',
        '```yaml',
        'destination: { type: duckdb }',
        '```',
        '```yaml fragment',
        'streams: { mentions: {} }',
        '```',
      ].join('\n'),
    };
    const problems = await configProblems([broken]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^broken\.md:1: line 2: unknown key "shema" in destination, did you mean "schema"\?/);
    expect(problems[1]).toMatch(/^broken\.md:5: line 3: source\.api_key is written into the config file/);
    expect(problems[2]).toMatch(/^broken\.md:10: .*give exactly one of source/);
  });
});
