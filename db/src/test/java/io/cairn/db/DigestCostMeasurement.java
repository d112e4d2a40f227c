package io.cairn.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.db.digest.TupleHasher;
import io.micrometer.core.instrument.Clock;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the incremental digest costs: puts per second with digest maintenance on and off, 100,000
 * values of ~100 bytes in transactions of 10 writes (puts of new keys, puts over existing keys, and
 * the applier pattern "get, then update"), and the raw cost of one tuple hash against truncated
 * SHA-256. A measurement, not a check; run with {@code -Dcairn.db.measureDigestCost=true
 * -Dtest=DigestCostMeasurement}.
 */
@EnabledIfSystemProperty(named = "cairn.db.measureDigestCost", matches = "true")
final class DigestCostMeasurement {

  private static final int VALUES = 100_000;
  private static final int PUTS_PER_TRANSACTION = 10;
  private static final int ROUNDS = 3;
  private static final Clock CLOCK = Clock.SYSTEM;
  private static final String[] PHASES = {
    "put of new keys", "put over existing keys", "get then update of existing keys"
  };

  @TempDir Path root;
  private int directories;

  @Test
  void measurePutsPerSecondWithAndWithoutDigest() {
    run(true, true); // warm up
    run(false, true);
    double[][] on = new double[ROUNDS][];
    double[][] off = new double[ROUNDS][];
    for (int round = 0; round < ROUNDS; round++) {
      on[round] = run(true, false);
      off[round] = run(false, false);
    }
    for (int phase = 0; phase < PHASES.length; phase++) {
      double onRate = median(on, phase);
      double offRate = median(off, phase);
      System.out.printf(
          "%s: digest on %.0f writes/s, off %.0f writes/s, on/off = %.2f%n",
          PHASES[phase], onRate, offRate, onRate / offRate);
    }
  }

  @Test
  void measureTupleHashCost() throws NoSuchAlgorithmException {
    byte[] family = "ACCOUNTS".getBytes();
    byte[] key = new byte[8];
    byte[] value = new byte[100];
    new Random(1).nextBytes(value);
    TupleHasher hasher = new TupleHasher();
    MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
    long sink = 0;
    for (int round = 0; round < 3; round++) {
      long murmurStart = CLOCK.monotonicTime();
      for (int i = 0; i < 1_000_000; i++) {
        key[0] = (byte) i;
        sink += hasher.hash(family, key, value).low();
      }
      long murmurNanos = CLOCK.monotonicTime() - murmurStart;
      long shaStart = CLOCK.monotonicTime();
      for (int i = 0; i < 1_000_000; i++) {
        key[0] = (byte) i;
        sha256.update(family);
        sha256.update(key);
        sha256.update(value);
        sink += sha256.digest()[0];
      }
      long shaNanos = CLOCK.monotonicTime() - shaStart;
      System.out.printf(
          "tuple hash of 116 bytes: murmur3-128 %.0f ns, sha-256 %.0f ns (sink %d)%n",
          murmurNanos / 1e6, shaNanos / 1e6, sink);
    }
  }

  /** Writes/s for each of {@link #PHASES}. */
  private double[] run(boolean digest, boolean warmUp) {
    Random random = new Random(42);
    byte[][] values = new byte[VALUES][];
    for (int i = 0; i < VALUES; i++) {
      values[i] = new byte[90 + random.nextInt(21)];
      random.nextBytes(values[i]);
    }
    long[] keys = new long[VALUES];
    for (int i = 0; i < VALUES; i++) {
      keys[i] = random.nextLong();
    }
    DbConfig config = DbConfig.builder().digestMaintained(digest).build();
    try (CairnDb db = TestFamily.open(root.resolve("db-" + directories++), config)) {
      ColumnFamily<Long, byte[]> family =
          db.columnFamily(TestFamily.ACCOUNTS, DbCodecs.LONG, DbCodecs.BYTES);
      double[] rates = new double[PHASES.length];
      for (int phase = 0; phase < PHASES.length; phase++) {
        boolean getThenUpdate = phase == 2;
        int shift = phase + 1;
        long start = CLOCK.monotonicTime();
        for (int i = 0; i < VALUES; i += PUTS_PER_TRANSACTION) {
          int first = i;
          db.runInTransaction(
              () -> {
                for (int j = first; j < first + PUTS_PER_TRANSACTION; j++) {
                  if (getThenUpdate) {
                    family.get(keys[j]);
                    family.update(keys[j], values[(j + shift) % VALUES]);
                  } else {
                    family.put(keys[j], values[(j + shift) % VALUES]);
                  }
                }
              });
        }
        rates[phase] = VALUES / ((CLOCK.monotonicTime() - start) / 1e9);
      }
      if (digest && !warmUp) {
        assertThat(db.stateDigest()).isEqualTo(db.recomputeDigest());
      }
      return rates;
    }
  }

  private static double median(double[][] rates, int phase) {
    double[] values = Arrays.stream(rates).mapToDouble(r -> r[phase]).sorted().toArray();
    return values[values.length / 2];
  }
}
