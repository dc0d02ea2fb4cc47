import { EventEmitter } from 'node:events';

/**
 * Wakes the held command polls of nodes that were just given a command by this master. Another
 * master sharing the database is not told: its polls look again every few seconds on their own.
 */
export class CommandBus {
  private readonly events = new EventEmitter().setMaxListeners(0);

  wake(nodeIds: Iterable<number>): void {
    for (const id of nodeIds) this.events.emit(String(id));
  }

  /** Resolves when the node is woken, after `ms`, or on abort, whichever comes first. */
  wait(nodeId: number, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.events.off(String(nodeId), done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.events.on(String(nodeId), done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
