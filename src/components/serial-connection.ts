/**
 * A platform link that is opened, replaced as a whole on `restart` (a new token or server) and closed, one
 * transition at a time: a restart asked for while a start is still closing waits its turn instead of racing
 * it. Each interface gives `open` (report and return at once; connecting goes on in the background) and `close`.
 */
export abstract class SerialConnection {
  private transitions: Promise<void> = Promise.resolve();

  start(): Promise<void> {
    return this.queue(async () => this.open());
  }

  restart(): Promise<void> {
    return this.queue(async () => {
      await this.close();
      this.open();
    });
  }

  stop(): Promise<void> {
    return this.queue(() => this.close());
  }

  protected abstract open(): void;

  protected abstract close(): Promise<void>;

  private queue(transition: () => Promise<void>): Promise<void> {
    this.transitions = this.transitions.then(transition, transition);
    return this.transitions;
  }
}
