/** The bench's figures as the Markdown table `npm run bench` prints and the README quotes. */
import type { BenchFigure } from './bench-figure.ts';

const cell = (text: string | number) => String(text).replace(/\|/g, '\\|');

export function resultsTable(figures: readonly BenchFigure[]): string {
  const lines = ['| # | Figure | Value | Target | Met | Measured | Inputs |', '|---|---|---|---|---|---|---|'];
  figures.forEach((f, i) => {
    const met = f.target === 'informational' ? '-' : f.met ? 'yes' : '**no**';
    lines.push(
      `| ${i + 1} | ${cell(f.figure)} | ${cell(f.value)} | ${cell(f.target)} | ${met} | ${cell(f.measured)} | ${cell(f.inputs)} |`,
    );
  });
  return lines.join('\n');
}
