import { EventEmitter } from 'node:events';

/**
 * Wakes the held command polls of nodes that were just given a command: this master's at once, the
 * other masters' through `relay` (the cluster bus), which calls `wakeHere` there.
 */
export class CommandBus {
  private readonly events = new EventEmitter().setMaxListeners(0);
  private readonly relay: (nodeIds: number[]) => void;

  constructor(relay: (nodeIds: number[]) => void = () => undefined) {
    this.relay = relay;
  }

  wake(nodeIds: Iterable<number>): void {
    const ids = [...nodeIds];
    this.wakeHere(ids);
    if (ids.length > 0) this.relay(ids);
  }

  /** Wakes this master's polls of these nodes only. */
  wakeHere(nodeIds: Iterable<number>): void {
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
