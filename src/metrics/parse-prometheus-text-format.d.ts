/** Types of the `parse-prometheus-text-format` package (it ships none): the prom2json shape. */
declare module 'parse-prometheus-text-format' {
  interface ParsedMetric {
    readonly value?: string;
    readonly labels?: Record<string, string>;
  }
  interface ParsedFamily {
    readonly name: string;
    readonly help: string;
    readonly type: 'GAUGE' | 'COUNTER' | 'SUMMARY' | 'HISTOGRAM' | 'UNTYPED';
    readonly metrics: readonly ParsedMetric[];
  }
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
