package io.tern.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.CountDownLatch;

/**
 * A file channel whose positional writes wait until the test releases them, so a test can hold a
 * writer in the middle of a write. Only positional writes are supported.
 */
final class BlockingWriteChannel extends FileChannel {
  final CountDownLatch writing = new CountDownLatch(1);
  final CountDownLatch release = new CountDownLatch(1);
  private final FileChannel delegate;

  BlockingWriteChannel(FileChannel delegate) {
    this.delegate = delegate;
  }

  @Override
  public int write(ByteBuffer src, long position) throws IOException {
    writing.countDown();
    try {
      release.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    return delegate.write(src, position);
  }

  @Override
  protected void implCloseChannel() throws IOException {
    delegate.close();
  }

  @Override
  public int read(ByteBuffer dst) {
    throw new UnsupportedOperationException();
  }

  @Override
  public long read(ByteBuffer[] dsts, int offset, int length) {
    throw new UnsupportedOperationException();
  }

  @Override
  public int write(ByteBuffer src) {
    throw new UnsupportedOperationException();
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) {
    throw new UnsupportedOperationException();
  }

  @Override
  public long position() {
    throw new UnsupportedOperationException();
  }

  @Override
  public FileChannel position(long newPosition) {
    throw new UnsupportedOperationException();
  }

  @Override
  public long size() throws IOException {
    return delegate.size();
  }

  @Override
  public FileChannel truncate(long size) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void force(boolean metaData) throws IOException {
    delegate.force(metaData);
  }

  @Override
  public long transferTo(long position, long count, WritableByteChannel target) {
    throw new UnsupportedOperationException();
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long position, long count) {
    throw new UnsupportedOperationException();
  }

  @Override
  public int read(ByteBuffer dst, long position) {
    throw new UnsupportedOperationException();
  }

  @Override
  public MappedByteBuffer map(MapMode mode, long position, long size) {
    throw new UnsupportedOperationException();
  }

  @Override
  public FileLock lock(long position, long size, boolean shared) {
    throw new UnsupportedOperationException();
  }

  @Override
  public FileLock tryLock(long position, long size, boolean shared) {
    throw new UnsupportedOperationException();
  }
}
