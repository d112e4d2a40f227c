package io.cairn.backupfs.content;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** Lets writes through at the pace of a {@link WriteThrottle}; does not close the target. */
final class ThrottledOutputStream extends FilterOutputStream {

  private final WriteThrottle limiter;

  ThrottledOutputStream(OutputStream out, WriteThrottle limiter) {
    super(out);
    this.limiter = limiter;
  }

  @Override
  public void write(int b) throws IOException {
    limiter.acquire(1);
    out.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    limiter.acquire(len);
    out.write(b, off, len);
  }

  @Override
  public void close() throws IOException {
    // The caller owns the target.
    flush();
  }
}
