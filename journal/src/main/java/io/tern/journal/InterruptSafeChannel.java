package io.tern.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * A {@link FileChannel} that {@link Thread#interrupt()} cannot break.
 *
 * <p>A FileChannel is interruptible: an operation by a thread whose interrupt flag is set, or a
 * thread interrupted during the operation, closes the channel for every thread that uses it. The
 * journal's and Raft's files must survive anybody's interrupt, so every operation here sets the
 * caller's interrupt flag aside while it runs (and sets it again before returning), and a channel
 * that another thread's interrupt closed is reopened and the operation repeated. Positional reads,
 * writes and {@code force} can simply be repeated. Only {@link #close()} ends the channel for good.
 *
 * <p>Thread-safe: threads may read and write concurrently; a reopen replaces the channel once for
 * all of them.
 */
public final class InterruptSafeChannel implements AutoCloseable {
  /** Reopens per operation before giving up: something that keeps closing it is a real fault. */
  static final int MAX_REOPENS = 3;

  private final Path file;
  private final OpenOption[] options;
  private volatile FileChannel channel;
  private boolean closed; // under this

  /**
   * Takes over {@code channel}, an open channel on {@code file}; a replacement is opened with
   * {@code options}.
   */
  InterruptSafeChannel(Path file, FileChannel channel, OpenOption... options) {
    this.file = file;
    this.channel = channel;
    this.options = options.clone();
  }

  /** Opens {@code file} with {@code options} (as {@link FileChannel#open(Path, OpenOption...)}). */
  public static InterruptSafeChannel open(Path file, OpenOption... options) throws IOException {
    return new InterruptSafeChannel(file, FileChannel.open(file, options), options);
  }

  /** Writes all of {@code source} at {@code position}. */
  public void writeFully(ByteBuffer source, long position) throws IOException {
    int start = source.position();
    run(
        current -> {
          while (source.hasRemaining()) {
            current.write(source, position + (source.position() - start));
          }
          return null;
        });
  }

  /**
   * Reads from {@code position} until {@code target} is full or the file ends.
   *
   * @return the bytes read
   */
  public int readFully(ByteBuffer target, long position) throws IOException {
    int start = target.position();
    return run(
        current -> {
          while (target.hasRemaining()) {
            if (current.read(target, position + (target.position() - start)) < 0) {
              break;
            }
          }
          return target.position() - start;
        });
  }

  /** As {@link FileChannel#force(boolean)}; a reopened channel forces the same file. */
  public void force(boolean metaData) throws IOException {
    run(
        current -> {
          current.force(metaData);
          return null;
        });
  }

  public long size() throws IOException {
    return run(FileChannel::size);
  }

  /** Closes the channel; it is not reopened after this. */
  @Override
  public synchronized void close() throws IOException {
    closed = true;
    channel.close();
  }

  /**
   * Runs {@code action} with the caller's interrupt flag set aside, for code that uses
   * interruptible channels of its own (opening a journal, syncing a directory): an interrupt left
   * on the caller's thread would otherwise fail it. The flag is set again before this returns.
   */
  public static <T, E extends Exception> T deferringInterrupt(Action<T, E> action) throws E {
    boolean interrupted = Thread.interrupted();
    try {
      return action.run();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Work run by {@link #deferringInterrupt}. */
  @FunctionalInterface
  public interface Action<T, E extends Exception> {
    T run() throws E;
  }

  @FunctionalInterface
  private interface ChannelOperation<T> {
    T apply(FileChannel channel) throws IOException;
  }

  /**
   * Runs {@code operation} with the interrupt flag set aside; if the channel is closed under it (by
   * an interrupt, of this thread or another), reopens it and runs the operation again, which must
   * resume where the closed attempt stopped.
   */
  private <T> T run(ChannelOperation<T> operation) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      for (int reopened = 0; ; reopened++) {
        FileChannel current = channel;
        try {
          return operation.apply(current);
        } catch (ClosedChannelException e) {
          interrupted |= Thread.interrupted();
          if (reopened >= MAX_REOPENS || !reopen(current)) {
            throw e;
          }
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Replaces {@code failed} with a new channel unless another thread did already; false once {@link
   * #close()} was called.
   */
  private synchronized boolean reopen(FileChannel failed) throws IOException {
    if (closed) {
      return false;
    }
    if (channel == failed) {
      channel = FileChannel.open(file, options);
    }
    return true;
  }

  @Override
  public String toString() {
    return "InterruptSafeChannel{" + file + "}";
  }
}
