package io.tern.benchmark.raft;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Committed throughput with a bounded number of appends in flight per partition (closed loop): one
 * sender per partition appends whenever fewer than the bound are outstanding. Only commits that
 * complete inside the measured window count.
 */
final class MaxThroughput {
  record Result(long committed, long failed, long measureNs, int entryBytes) {
    double megabytesPerS() {
      return committed * (double) entryBytes / 1e6 / (measureNs / 1e9);
    }

    double entriesPerS() {
      return committed / (measureNs / 1e9);
    }
  }

  private MaxThroughput() {}

  static Result run(
      ClusterUnderTest cluster,
      int partitions,
      int outstandingPerPartition,
      long warmupNs,
      long measureNs,
      byte[] payload)
      throws InterruptedException {
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicBoolean measuring = new AtomicBoolean(false);
    LongAdder committed = new LongAdder();
    LongAdder failed = new LongAdder();
    List<Thread> senders = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      Semaphore slots = new Semaphore(outstandingPerPartition);
      int partition = p;
      Thread sender =
          new Thread(
              () -> {
                while (running.get()) {
                  try {
                    if (!slots.tryAcquire(10, TimeUnit.MILLISECONDS)) {
                      continue;
                    }
                  } catch (InterruptedException e) {
                    return;
                  }
                  CompletableFuture<Void> append;
                  try {
                    append = cluster.append(partition, payload);
                  } catch (RuntimeException e) {
                    append = CompletableFuture.failedFuture(e);
                  }
                  append.whenComplete(
                      (ignored, error) -> {
                        if (measuring.get()) {
                          (error == null ? committed : failed).increment();
                        }
                        slots.release();
                      });
                }
              },
              "raft-bench-sender-" + p);
      sender.setDaemon(true);
      senders.add(sender);
    }
    senders.forEach(Thread::start);
    TimeUnit.NANOSECONDS.sleep(warmupNs);
    measuring.set(true);
    long startNs = System.nanoTime();
    TimeUnit.NANOSECONDS.sleep(measureNs);
    measuring.set(false);
    long elapsedNs = System.nanoTime() - startNs;
    running.set(false);
    for (Thread sender : senders) {
      sender.join();
    }
    // Appends still in flight fail when the cluster closes; they are not counted.
    return new Result(committed.sum(), failed.sum(), elapsedNs, payload.length);
  }
}
