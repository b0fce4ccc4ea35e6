package io.tern.benchmark.chaos;

/**
 * The clients of a chaos run, whichever workload: they start with the faults, stop creating when
 * the faults end, and go on working (so that instances can end) until closed after the settle.
 */
interface Workload extends AutoCloseable {
  void start();

  /** Instances (or messages) created so far, any outcome. */
  long created();

  /** Stops creating and waits for the requests in flight; workers go on. */
  void stopCreating() throws InterruptedException;

  /** Stops the workers and waits for them. */
  @Override
  void close() throws InterruptedException;
}
