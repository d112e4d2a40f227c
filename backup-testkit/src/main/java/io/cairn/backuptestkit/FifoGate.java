package io.cairn.backuptestkit;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Assumptions;

/**
 * A named pipe used as a source file, so a test can hold a save in the middle of reading its
 * contents: the store's read blocks until the test has done what it wants (mark the backup failed,
 * try to delete it) and then writes the bytes. POSIX only ({@code mkfifo}); tests using it are
 * skipped elsewhere.
 */
public final class FifoGate implements AutoCloseable {

  private final Path path;
  private final java.util.concurrent.ExecutorService opener =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "fifo-gate-opener");
            t.setDaemon(true);
            return t;
          });
  private OutputStream writer;

  private FifoGate(Path path) {
    this.path = path;
  }

  /** Creates a named pipe at {@code path}; skips the test where {@code mkfifo} is unavailable. */
  public static FifoGate create(Path path) throws IOException, InterruptedException {
    int exit;
    try {
      Process process = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
      exit = process.waitFor(10, TimeUnit.SECONDS) ? process.exitValue() : -1;
    } catch (IOException e) {
      exit = -1;
    }
    Assumptions.assumeTrue(exit == 0, "mkfifo is not available here");
    return new FifoGate(path);
  }

  public Path path() {
    return path;
  }

  /**
   * Returns once the store has opened the pipe for reading (so it is inside its save, past the
   * IN_PROGRESS manifest).
   *
   * @throws AssertionError if the store does not open it within {@code timeout}
   */
  public void awaitReader(Duration timeout) throws InterruptedException {
    CompletableFuture<OutputStream> open =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new FileOutputStream(path.toFile());
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            },
            opener);
    try {
      writer = open.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      release();
      throw new AssertionError(
          "Expected the store to open "
              + path
              + " for reading within "
              + timeout
              + ", but it did not");
    } catch (ExecutionException e) {
      throw new AssertionError("Expected to open " + path + " for writing", e.getCause());
    }
  }

  /** Writes the content the store is waiting for and ends the stream. */
  public void write(byte[] content) throws IOException {
    writer.write(content);
    writer.close();
    writer = null;
  }

  private void release() {
    // Opening the read end unblocks a writer that is still waiting to open.
    try {
      InputStream reader = new FileInputStream(path.toFile());
      reader.close();
    } catch (IOException e) {
      // best effort: the test fails anyway
    }
  }

  @Override
  public void close() throws IOException {
    if (writer != null) {
      writer.close();
    }
    opener.shutdownNow();
  }
}
