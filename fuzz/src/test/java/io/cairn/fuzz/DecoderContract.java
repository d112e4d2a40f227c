package io.cairn.fuzz;

import java.lang.management.ManagementFactory;

/**
 * The promise every decoder of bytes from outside the process keeps, checked on one input: it
 * decodes, or it refuses with its module's own exception and a message that says what is wrong.
 * Never another exception (an {@code IndexOutOfBoundsException}, an {@code OutOfMemoryError} from a
 * length it trusted), and never an allocation out of proportion to the input: a length or count
 * read from the input must be checked against the bytes present before it sizes anything. Hangs are
 * caught by each fuzz test's {@code @Timeout}, which Jazzer applies to every input.
 */
public final class DecoderContract {

  /** Room for a refusal (the exception, its stack trace, its message) and for decoding tables. */
  static final long BASE_ALLOWANCE_BYTES = 4L * 1024 * 1024;

  /** A decoder may copy, box and index its input some times over, not more. */
  private static final long ALLOWANCE_PER_INPUT_BYTE = 64;

  private static final com.sun.management.ThreadMXBean THREADS = allocationCounter();

  /** One decoding of one input. */
  @FunctionalInterface
  public interface Decoding {
    void run() throws Exception;

    /** A decoder of a whole byte array; what it returns is not looked at. */
    @FunctionalInterface
    interface Of {
      void decode(byte[] input) throws Exception;
    }
  }

  private DecoderContract() {}

  /**
   * Runs {@code decoding} of {@code input} and fails, as a fuzzer finding, unless it returned or
   * threw {@code refusal} with a message, within the allocation allowance of the input's size.
   */
  public static void decodesOrRefuses(
      byte[] input, Class<? extends Throwable> refusal, Decoding decoding) {
    decodesOrRefuses(input.length, BASE_ALLOWANCE_BYTES, refusal, decoding);
  }

  /**
   * As above, for a decoder whose input is {@code inputBytes} long, with {@code baseAllowanceBytes}
   * for what it allocates whatever the input (a config reader builds its whole catalogue).
   */
  public static void decodesOrRefuses(
      long inputBytes,
      long baseAllowanceBytes,
      Class<? extends Throwable> refusal,
      Decoding decoding) {
    Throwable thrown = run(decoding);
    if (thrown != null && !refusal.isInstance(thrown)) {
      throw new AssertionError(
          "Expected the decoder to decode or refuse with "
              + refusal.getName()
              + ", but it threw "
              + thrown,
          thrown);
    }
    if (thrown != null && (thrown.getMessage() == null || thrown.getMessage().isBlank())) {
      throw new AssertionError(
          "Expected a refusal to say what is wrong, but it has no message", thrown);
    }
    // Measured on a second run: the first may load and initialise classes (a YAML parser's first
    // call allocates megabytes), which is not what the allowance is about.
    long before = THREADS.getCurrentThreadAllocatedBytes();
    run(decoding);
    long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
    long allowance = baseAllowanceBytes + ALLOWANCE_PER_INPUT_BYTE * inputBytes;
    if (allocated > allowance) {
      throw new AssertionError(
          "Expected decoding "
              + inputBytes
              + " bytes to allocate at most "
              + allowance
              + " bytes, but it allocated "
              + allocated
              + (thrown == null ? "" : " (and refused: " + thrown.getMessage() + ")"));
    }
  }

  /**
   * As {@link #decodesOrRefuses(byte[], Class, Decoding)}, for a decoder that refuses otherwise
   * than by throwing (a frame decoder closes its connection): any exception is a finding.
   */
  public static void decodesWithoutThrowing(byte[] input, Decoding decoding) {
    decodesOrRefuses(input.length, BASE_ALLOWANCE_BYTES, NothingThrown.class, decoding);
  }

  /** Thrown by no decoder: the refusal of one that may throw nothing. */
  private static final class NothingThrown extends RuntimeException {
    private NothingThrown() {}
  }

  private static Throwable run(Decoding decoding) {
    try {
      decoding.run();
      return null;
    } catch (Throwable t) {
      return t;
    }
  }

  private static com.sun.management.ThreadMXBean allocationCounter() {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    if (!threads.isThreadAllocatedMemorySupported()) {
      throw new IllegalStateException(
          "Expected a JVM that counts allocations per thread (HotSpot does), but this one does not");
    }
    threads.setThreadAllocatedMemoryEnabled(true);
    return threads;
  }
}
