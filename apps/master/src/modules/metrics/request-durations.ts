import type { Metric, Registry } from 'prom-client';

type RequestLabels = { route: string; method: string; status_code: string };

interface Series {
  labels: RequestLabels;
  /** Observations per bucket (not cumulative), in the order of the bounds. */
  counts: number[];
  sum: number;
  count: number;
}

/** One exported value, in the shape prom-client's registry formats (its Histogram's own shape). */
interface ExportedValue {
  labels: Record<string, string | number>;
  sharedLabels: RequestLabels;
  value: number;
  metricName: string;
  exemplar: null | undefined;
}

/**
 * The request duration histogram by route, method and status, as prom-client's labelled Histogram
 * exposes it (same lines, same values), with a cheaper observation: the series is found through
 * three map lookups with no label object, validation or label hash made per request. It runs on
 * every answered call; prom-client's `observe` cost about 4 % of a cached signed-in call.
 */
export class RequestDurations {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #bounds: readonly number[];
  // route → method → status → series; series keep their first-observed order, as prom-client's do.
  #byRoute = new Map<string, Map<string, Map<number, Series>>>();
  #series: Series[] = [];

  constructor(options: { name: string; help: string; buckets: readonly number[]; registers: Registry[] }) {
    this.name = options.name;
    this.help = options.help;
    this.#bounds = [...options.buckets];
    // The registry formats any object with prom-client's metric shape; it only reads these members.
    for (const registry of options.registers) registry.registerMetric(this as unknown as Metric);
  }

  observe(route: string, method: string, status: number, seconds: number) {
    if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${seconds}`);
    let byMethod = this.#byRoute.get(route);
    if (!byMethod) {
      byMethod = new Map();
      this.#byRoute.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let series = byStatus.get(status);
    if (!series) {
      series = {
        labels: { route, method, status_code: String(status) },
        counts: this.#bounds.map(() => 0),
        sum: 0,
        count: 0,
      };
      byStatus.set(status, series);
      this.#series.push(series);
    }
    const bounds = this.#bounds;
    for (let index = 0; index < bounds.length; index++) {
      if (seconds <= (bounds[index] as number)) {
        series.counts[index] = (series.counts[index] as number) + 1;
        break;
      }
    }
    series.sum += seconds;
    series.count += 1;
  }

  /** What prom-client's Histogram hands the registry: cumulative buckets, +Inf, sum and count per series. */
  getForPromString() {
    const bucket = `${this.name}_bucket`;
    const values: ExportedValue[] = [];
    for (const series of this.#series) {
      let cumulative = 0;
      this.#bounds.forEach((bound, index) => {
        cumulative += series.counts[index] as number;
        values.push({
          labels: { le: bound },
          sharedLabels: series.labels,
          value: cumulative,
          metricName: bucket,
          exemplar: null,
        });
      });
      values.push(
        {
          labels: { le: '+Inf' },
          sharedLabels: series.labels,
          value: series.count,
          metricName: bucket,
          exemplar: null,
        },
        {
          labels: {},
          sharedLabels: series.labels,
          value: series.sum,
          metricName: `${this.name}_sum`,
          exemplar: undefined,
        },
        {
          labels: {},
          sharedLabels: series.labels,
          value: series.count,
          metricName: `${this.name}_count`,
          exemplar: undefined,
        },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The same values with the series labels spread into each (prom-client's `get()`, used for JSON). */
  get() {
    const metric = this.getForPromString();
    return {
      ...metric,
      values: metric.values.map(({ sharedLabels, labels, ...value }) => ({
        ...value,
        labels: { ...labels, ...sharedLabels },
      })),
    };
  }

  reset() {
    this.#byRoute = new Map();
    this.#series = [];
  }
}
