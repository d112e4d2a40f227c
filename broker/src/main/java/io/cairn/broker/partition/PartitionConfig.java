package io.cairn.broker.partition;

import io.cairn.db.DbConfig;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.JournalFiles;
import io.cairn.logstreams.LogStreamConfig;
import io.cairn.raft.RaftConfig;
import io.cairn.raft.log.RaftEntryDescriptor;
import io.cairn.snapshot.SnapshotConfig;
import io.cairn.streamprocessor.StreamProcessorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Immutable, validated settings of one partition: the settings of every part it assembles plus its
 * own. How they are read (files, environment) is the broker's business. {@link Builder#build()}
 * lists every violation in one {@link IllegalArgumentException}.
 *
 * <table>
 *   <caption>Keys of the partition itself</caption>
 *   <tr><th>key</th><th>default</th><th>allowed</th></tr>
 *   <tr><td>journalSegmentSizeBytes</td><td>128 MiB</td><td>[4 KiB, 1 GiB]; must hold the
 *       largest log batch ({@code logStream.maxBatchSizeBytes}) plus the raft entry
 *       header</td></tr>
 *   <tr><td>journalIndexDensity</td><td>100</td><td>[1, 1,000,000]</td></tr>
 *   <tr><td>journalPreallocateSegmentFiles</td><td>true</td><td></td></tr>
 *   <tr><td>transitionRetryDelayMin</td><td>100 ms</td><td>[1 ms, 1 min]; wait after the first
 *       failed role transition, doubled per further failure</td></tr>
 *   <tr><td>transitionRetryDelayMax</td><td>10 s</td><td>[transitionRetryDelayMin, 10
 *       min]</td></tr>
 *   <tr><td>transitionAttemptsMax</td><td>10</td><td>[1, 1000]; consecutive failed transitions
 *       before the partition is FAILED</td></tr>
 * </table>
 *
 * The nested settings ({@code raft}, {@code logStream}, {@code streamProcessor}, {@code snapshot},
 * {@code db}) are validated by their own classes.
 */
public final class PartitionConfig {

  public static final Duration TRANSITION_RETRY_DELAY_MIN_DEFAULT = Duration.ofMillis(100);
  public static final Duration TRANSITION_RETRY_DELAY_MAX_DEFAULT = Duration.ofSeconds(10);
  public static final int TRANSITION_ATTEMPTS_MAX_DEFAULT = 10;

  private static final Duration RETRY_DELAY_LOWEST = Duration.ofMillis(1);
  private static final Duration RETRY_DELAY_MIN_HIGHEST = Duration.ofMinutes(1);
  private static final Duration RETRY_DELAY_MAX_HIGHEST = Duration.ofMinutes(10);
  private static final int TRANSITION_ATTEMPTS_LIMIT = 1000;

  private final RaftConfig raft;
  private final LogStreamConfig logStream;
  private final StreamProcessorConfig streamProcessor;
  private final SnapshotConfig snapshot;
  private final DbConfig db;
  private final int journalSegmentSizeBytes;
  private final int journalIndexDensity;
  private final boolean journalPreallocateSegmentFiles;
  private final Duration transitionRetryDelayMin;
  private final Duration transitionRetryDelayMax;
  private final int transitionAttemptsMax;

  private PartitionConfig(Builder builder) {
    raft = builder.raft;
    logStream = builder.logStream;
    streamProcessor = builder.streamProcessor;
    snapshot = builder.snapshot;
    db = builder.db;
    journalSegmentSizeBytes = builder.journalSegmentSizeBytes;
    journalIndexDensity = builder.journalIndexDensity;
    journalPreallocateSegmentFiles = builder.journalPreallocateSegmentFiles;
    transitionRetryDelayMin = builder.transitionRetryDelayMin;
    transitionRetryDelayMax = builder.transitionRetryDelayMax;
    transitionAttemptsMax = builder.transitionAttemptsMax;
  }

  public static Builder builder() {
    return new Builder();
  }

  public static PartitionConfig defaults() {
    return builder().build();
  }

  public Builder toBuilder() {
    return builder()
        .raft(raft)
        .logStream(logStream)
        .streamProcessor(streamProcessor)
        .snapshot(snapshot)
        .db(db)
        .journalSegmentSizeBytes(journalSegmentSizeBytes)
        .journalIndexDensity(journalIndexDensity)
        .journalPreallocateSegmentFiles(journalPreallocateSegmentFiles)
        .transitionRetryDelayMin(transitionRetryDelayMin)
        .transitionRetryDelayMax(transitionRetryDelayMax)
        .transitionAttemptsMax(transitionAttemptsMax);
  }

  public RaftConfig raft() {
    return raft;
  }

  public LogStreamConfig logStream() {
    return logStream;
  }

  public StreamProcessorConfig streamProcessor() {
    return streamProcessor;
  }

  public SnapshotConfig snapshot() {
    return snapshot;
  }

  public DbConfig db() {
    return db;
  }

  public int journalSegmentSizeBytes() {
    return journalSegmentSizeBytes;
  }

  public int journalIndexDensity() {
    return journalIndexDensity;
  }

  public boolean journalPreallocateSegmentFiles() {
    return journalPreallocateSegmentFiles;
  }

  public Duration transitionRetryDelayMin() {
    return transitionRetryDelayMin;
  }

  public Duration transitionRetryDelayMax() {
    return transitionRetryDelayMax;
  }

  public int transitionAttemptsMax() {
    return transitionAttemptsMax;
  }

  /**
   * The journal settings of {@code partitionId} in {@code layout}, its files opened by {@code
   * files}.
   */
  JournalConfig journalConfig(PartitionLayout layout, int partitionId, JournalFiles files) {
    return JournalConfig.builder()
        .directory(layout.journal())
        .name(PartitionLayout.journalName(partitionId))
        .segmentSizeBytes(journalSegmentSizeBytes)
        .indexDensity(journalIndexDensity)
        .preallocateSegmentFiles(journalPreallocateSegmentFiles)
        .files(files)
        .build();
  }

  @Override
  public String toString() {
    return "PartitionConfig{raft="
        + raft
        + ", logStream="
        + logStream
        + ", streamProcessor="
        + streamProcessor
        + ", snapshot="
        + snapshot
        + ", db="
        + db
        + ", journalSegmentSizeBytes="
        + journalSegmentSizeBytes
        + ", journalIndexDensity="
        + journalIndexDensity
        + ", journalPreallocateSegmentFiles="
        + journalPreallocateSegmentFiles
        + ", transitionRetryDelayMin="
        + transitionRetryDelayMin
        + ", transitionRetryDelayMax="
        + transitionRetryDelayMax
        + ", transitionAttemptsMax="
        + transitionAttemptsMax
        + "}";
  }

  /** Collects settings; {@link #build()} validates them all at once. */
  public static final class Builder {
    private RaftConfig raft = RaftConfig.defaults();
    private LogStreamConfig logStream = LogStreamConfig.defaults();
    private StreamProcessorConfig streamProcessor = StreamProcessorConfig.defaults();
    private SnapshotConfig snapshot = SnapshotConfig.defaults();
    private DbConfig db = DbConfig.defaults();
    private int journalSegmentSizeBytes = JournalConfig.SEGMENT_SIZE_BYTES_DEFAULT;
    private int journalIndexDensity = JournalConfig.INDEX_DENSITY_DEFAULT;
    private boolean journalPreallocateSegmentFiles =
        JournalConfig.PREALLOCATE_SEGMENT_FILES_DEFAULT;
    private Duration transitionRetryDelayMin = TRANSITION_RETRY_DELAY_MIN_DEFAULT;
    private Duration transitionRetryDelayMax = TRANSITION_RETRY_DELAY_MAX_DEFAULT;
    private int transitionAttemptsMax = TRANSITION_ATTEMPTS_MAX_DEFAULT;

    private Builder() {}

    public Builder raft(RaftConfig value) {
      raft = value;
      return this;
    }

    public Builder logStream(LogStreamConfig value) {
      logStream = value;
      return this;
    }

    public Builder streamProcessor(StreamProcessorConfig value) {
      streamProcessor = value;
      return this;
    }

    public Builder snapshot(SnapshotConfig value) {
      snapshot = value;
      return this;
    }

    public Builder db(DbConfig value) {
      db = value;
      return this;
    }

    public Builder journalSegmentSizeBytes(int value) {
      journalSegmentSizeBytes = value;
      return this;
    }

    public Builder journalIndexDensity(int value) {
      journalIndexDensity = value;
      return this;
    }

    public Builder journalPreallocateSegmentFiles(boolean value) {
      journalPreallocateSegmentFiles = value;
      return this;
    }

    public Builder transitionRetryDelayMin(Duration value) {
      transitionRetryDelayMin = value;
      return this;
    }

    public Builder transitionRetryDelayMax(Duration value) {
      transitionRetryDelayMax = value;
      return this;
    }

    public Builder transitionAttemptsMax(int value) {
      transitionAttemptsMax = value;
      return this;
    }

    /**
     * @throws IllegalArgumentException listing every violated rule
     */
    public PartitionConfig build() {
      List<String> violations = new ArrayList<>();
      requireSet(violations, raft, "raft");
      requireSet(violations, logStream, "logStream");
      requireSet(violations, streamProcessor, "streamProcessor");
      requireSet(violations, snapshot, "snapshot");
      requireSet(violations, db, "db");
      boolean segmentSizeValid =
          journalSegmentSizeBytes >= JournalConfig.SEGMENT_SIZE_BYTES_MIN
              && journalSegmentSizeBytes <= JournalConfig.SEGMENT_SIZE_BYTES_MAX;
      if (!segmentSizeValid) {
        violations.add(
            "Expected journalSegmentSizeBytes in ["
                + JournalConfig.SEGMENT_SIZE_BYTES_MIN
                + ", "
                + JournalConfig.SEGMENT_SIZE_BYTES_MAX
                + "], but was "
                + journalSegmentSizeBytes);
      }
      if (journalIndexDensity < JournalConfig.INDEX_DENSITY_MIN
          || journalIndexDensity > JournalConfig.INDEX_DENSITY_MAX) {
        violations.add(
            "Expected journalIndexDensity in ["
                + JournalConfig.INDEX_DENSITY_MIN
                + ", "
                + JournalConfig.INDEX_DENSITY_MAX
                + "], but was "
                + journalIndexDensity);
      }
      if (segmentSizeValid && logStream != null) {
        int largestRecord =
            JournalConfig.builder()
                .directory(Path.of("unused"))
                .name("unused")
                .segmentSizeBytes(journalSegmentSizeBytes)
                .build()
                .maxRecordDataBytes();
        int largestEntry = logStream.maxBatchSizeBytes() + RaftEntryDescriptor.HEADER_LENGTH;
        if (largestEntry > largestRecord) {
          violations.add(
              "Expected a journal segment to hold the largest log batch, but logStream"
                  + " maxBatchSizeBytes "
                  + logStream.maxBatchSizeBytes()
                  + " plus the raft entry header ("
                  + RaftEntryDescriptor.HEADER_LENGTH
                  + ") exceeds the largest record of a "
                  + journalSegmentSizeBytes
                  + "-byte segment ("
                  + largestRecord
                  + "); raise journalSegmentSizeBytes or lower maxBatchSizeBytes");
        }
      }
      checkDuration(
          violations,
          "transitionRetryDelayMin",
          transitionRetryDelayMin,
          RETRY_DELAY_LOWEST,
          RETRY_DELAY_MIN_HIGHEST);
      if (transitionRetryDelayMin != null) {
        checkDuration(
            violations,
            "transitionRetryDelayMax",
            transitionRetryDelayMax,
            transitionRetryDelayMin,
            RETRY_DELAY_MAX_HIGHEST);
      }
      if (transitionAttemptsMax < 1 || transitionAttemptsMax > TRANSITION_ATTEMPTS_LIMIT) {
        violations.add(
            "Expected transitionAttemptsMax in [1, "
                + TRANSITION_ATTEMPTS_LIMIT
                + "], but was "
                + transitionAttemptsMax);
      }
      if (!violations.isEmpty()) {
        throw new IllegalArgumentException(String.join("; ", violations) + " (partition config)");
      }
      return new PartitionConfig(this);
    }

    private static void requireSet(List<String> violations, Object value, String key) {
      if (value == null) {
        violations.add("Expected " + key + " to be set, but it is null");
      }
    }

    private static void checkDuration(
        List<String> violations, String key, Duration value, Duration min, Duration max) {
      if (value == null) {
        violations.add("Expected " + key + " to be set, but it is null");
        return;
      }
      Objects.requireNonNull(min, "min");
      if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
        violations.add("Expected " + key + " in [" + min + ", " + max + "], but was " + value);
      }
    }
  }
}
