import type { JobResultBody } from '@rampart/contracts';
import { readJsonFile, writeFileAtomic } from './fs-atomic.ts';

/** What an agent keeps about itself (DATA_DIR/state.json, 0600: it holds the node credential). */
export interface AgentState {
  node_id?: number;
  credential?: string;
  /** A registration waiting for an admin, so a restart keeps polling instead of registering again. */
  pending?: { id: number; secret: string };
  /** Jobs already run on this node, newest last (bounded). */
  done_jobs: number[];
  /** Job results not yet acknowledged by the master. */
  unsent_results: Array<{ id: number } & JobResultBody>;
  /** The log spool cap of the last live snapshot (/config/res), kept for the next start. */
  spool_max_bytes?: number;
}

const MAX_DONE_JOBS = 10_000;

export class StateStore {
  private readonly path: string;
  private current: AgentState = { done_jobs: [], unsent_results: [] };
  private writing: Promise<void> = Promise.resolve();

  constructor(path: string) {
    this.path = path;
  }

  get state(): Readonly<AgentState> {
    return this.current;
  }

  async load(): Promise<AgentState> {
    const value = (await readJsonFile(this.path)) as Partial<AgentState> | null;
    this.current = {
      ...value,
      done_jobs: Array.isArray(value?.done_jobs) ? value.done_jobs.filter(Number.isSafeInteger) : [],
      unsent_results: Array.isArray(value?.unsent_results) ? value.unsent_results : [],
    };
    return this.current;
  }

  /** Applies `change` and writes the file (writes are serialized, each atomic). */
  update(change: (state: AgentState) => void): Promise<void> {
    change(this.current);
    if (this.current.done_jobs.length > MAX_DONE_JOBS) {
      this.current.done_jobs = this.current.done_jobs.slice(-MAX_DONE_JOBS);
    }
    const content = `${JSON.stringify(this.current, null, 2)}\n`;
    this.writing = this.writing.then(() => writeFileAtomic(this.path, content, 0o600));
    return this.writing;
  }
}
