import type { AccessLogLine, SiteMinute, StreamLogLine } from '@rampart/contracts';

/** A minute is reported again while lines for it may still arrive, then forgotten. */
const KEEP_CLEAN_SECONDS = 15 * 60;
/** Undelivered minutes are given up after this, so a long master outage cannot grow memory without bound. */
const KEEP_UNSENT_SECONDS = 60 * 60;

export interface TakenCounters {
  sites: SiteMinute[];
  bytesIn: number;
  bytesOut: number;
  /** HTTP requests (access log lines) since the last take. */
  requests: number;
}

/**
 * Per-site, per-minute counters from the access log lines the agent read, plus node bandwidth.
 * The master keeps the latest totals of each (node, site, minute), so a report carries the full
 * totals of every minute that changed since the last delivered report (a repeat does not double
 * count); node bandwidth is what was counted since the previous report.
 */
export class SiteCounters {
  private minutes = new Map<string, { row: SiteMinute; dirty: boolean }>();
  private newest = 0;
  private bytesIn = 0;
  private bytesOut = 0;
  private requests = 0;

  add(access: AccessLogLine[], stream: StreamLogLine[] = []): void {
    this.requests += access.length;
    for (const line of access) {
      this.bytesIn += line.bytes_received;
      this.bytesOut += line.bytes_sent;
      // Site 0 is the node: requests no site serves are counted under it, for admins.
      if (line.site_id < 0) continue;
      const minute = Math.floor(line.time / 60) * 60;
      this.newest = Math.max(this.newest, minute);
      const key = `${line.site_id}:${minute}`;
      let entry = this.minutes.get(key);
      if (!entry) {
        entry = { row: emptyMinute(line.site_id, minute), dirty: true };
        this.minutes.set(key, entry);
      }
      const { row } = entry;
      entry.dirty = true;
      row.requests++;
      row.bytes_in += line.bytes_received;
      row.bytes_out += line.bytes_sent;
      const status = Math.floor(line.status / 100);
      if (status === 2) row.status_2xx++;
      else if (status === 3) row.status_3xx++;
      else if (status === 4) row.status_4xx++;
      else if (status === 5) row.status_5xx++;
      if (line.cache_status === 'HIT') row.cache_hits++;
    }
    for (const line of stream) {
      this.bytesIn += line.bytes_received;
      this.bytesOut += line.bytes_sent;
    }
  }

  /** The totals of every minute that changed, and the bandwidth since the last take. */
  take(): TakenCounters {
    const sites: SiteMinute[] = [];
    for (const [key, entry] of this.minutes) {
      const age = this.newest - entry.row.minute;
      if (entry.dirty && age <= KEEP_UNSENT_SECONDS) sites.push({ ...entry.row });
      entry.dirty = false;
      if (age > KEEP_CLEAN_SECONDS) this.minutes.delete(key);
    }
    const taken = { sites, bytesIn: this.bytesIn, bytesOut: this.bytesOut, requests: this.requests };
    this.bytesIn = 0;
    this.bytesOut = 0;
    this.requests = 0;
    return taken;
  }

  /** A report was not delivered: its minutes go into the next one again, with its bandwidth. */
  restore(taken: TakenCounters): void {
    this.bytesIn += taken.bytesIn;
    this.bytesOut += taken.bytesOut;
    this.requests += taken.requests;
    for (const row of taken.sites) {
      const key = `${row.site_id}:${row.minute}`;
      const entry = this.minutes.get(key);
      if (entry) entry.dirty = true;
      else if (this.newest - row.minute <= KEEP_UNSENT_SECONDS) this.minutes.set(key, { row: { ...row }, dirty: true });
    }
  }
}

function emptyMinute(siteId: number, minute: number): SiteMinute {
  return {
    site_id: siteId,
    minute,
    requests: 0,
    bytes_in: 0,
    bytes_out: 0,
    status_2xx: 0,
    status_3xx: 0,
    status_4xx: 0,
    status_5xx: 0,
    cache_hits: 0,
  };
}
