package io.cairn.journal;

import io.cairn.journal.segment.FrameDescriptor;
import io.cairn.journal.segment.SegmentDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Immutable, validated settings of a {@link SegmentedJournal}. Build with {@link #builder()};
 * {@link Builder#build()} checks every field and lists every violation in one {@link
 * IllegalArgumentException}.
 *
 * <table>
 *   <caption>Keys</caption>
 *   <tr><th>key</th><th>default</th><th>allowed</th></tr>
 *   <tr><td>directory</td><td>(required)</td><td>any path; created if missing</td></tr>
 *   <tr><td>name</td><td>(required)</td><td>{@code [A-Za-z0-9_.-]{1,128}}; files are
 *       {@code <name>-<segmentId>.log}</td></tr>
 *   <tr><td>segmentSizeBytes</td><td>128 MiB</td><td>4 KiB .. 1 GiB</td></tr>
 *   <tr><td>indexDensity</td><td>100</td><td>1 .. 1,000,000</td></tr>
 *   <tr><td>preallocateSegmentFiles</td><td>true</td><td>true, false</td></tr>
 * </table>
 */
public final class JournalConfig {

  public static final int SEGMENT_SIZE_BYTES_DEFAULT = 128 * 1024 * 1024;

  /** One page: small enough for tests that roll segments often, large enough for the headers. */
  public static final int SEGMENT_SIZE_BYTES_MIN = 4 * 1024;

  /** Positions inside a segment are ints; 1 GiB keeps a safe margin below 2 GiB. */
  public static final int SEGMENT_SIZE_BYTES_MAX = 1024 * 1024 * 1024;

  public static final int INDEX_DENSITY_DEFAULT = 100;
  public static final int INDEX_DENSITY_MIN = 1;
  public static final int INDEX_DENSITY_MAX = 1_000_000;
  public static final boolean PREALLOCATE_SEGMENT_FILES_DEFAULT = true;

  private static final Pattern NAME_PATTERN = Pattern.compile("[A-Za-z0-9_.-]{1,128}");

  private final Path directory;
  private final String name;
  private final int segmentSizeBytes;
  private final int indexDensity;
  private final boolean preallocateSegmentFiles;
  private final JournalFiles files;

  private JournalConfig(Builder builder) {
    this.directory = builder.directory;
    this.name = builder.name;
    this.segmentSizeBytes = builder.segmentSizeBytes;
    this.indexDensity = builder.indexDensity;
    this.preallocateSegmentFiles = builder.preallocateSegmentFiles;
    this.files = builder.files;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from this configuration's values. */
  public Builder toBuilder() {
    return new Builder()
        .directory(directory)
        .name(name)
        .segmentSizeBytes(segmentSizeBytes)
        .indexDensity(indexDensity)
        .preallocateSegmentFiles(preallocateSegmentFiles)
        .files(files);
  }

  /** The directory holding the segment files. */
  public Path directory() {
    return directory;
  }

  /** The file prefix: segment files are named {@code <name>-<segmentId>.log}. */
  public String name() {
    return name;
  }

  /** The size of each new segment file, descriptor included. */
  public int segmentSizeBytes() {
    return segmentSizeBytes;
  }

  /** Every {@code indexDensity}-th record, and each segment's first, is in the sparse index. */
  public int indexDensity() {
    return indexDensity;
  }

  /** Whether new segment files are created at their full size (see README "Preallocation"). */
  public boolean preallocateSegmentFiles() {
    return preallocateSegmentFiles;
  }

  /** How the journal opens the files it writes: {@link JournalFiles#REAL} unless a test says. */
  public JournalFiles files() {
    return files;
  }

  /** The largest record payload that fits in an empty segment of {@link #segmentSizeBytes()}. */
  public int maxRecordDataBytes() {
    return maxRecordDataBytes(segmentSizeBytes);
  }

  static int maxRecordDataBytes(int segmentSizeBytes) {
    return segmentSizeBytes - SegmentDescriptor.LENGTH_BYTES - FrameDescriptor.HEADER_LENGTH_BYTES;
  }

  @Override
  public String toString() {
    return "JournalConfig{directory="
        + directory
        + ", name='"
        + name
        + "', segmentSizeBytes="
        + segmentSizeBytes
        + ", indexDensity="
        + indexDensity
        + ", preallocateSegmentFiles="
        + preallocateSegmentFiles
        + '}';
  }

  /** Mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private Path directory;
    private String name;
    private int segmentSizeBytes = SEGMENT_SIZE_BYTES_DEFAULT;
    private int indexDensity = INDEX_DENSITY_DEFAULT;
    private boolean preallocateSegmentFiles = PREALLOCATE_SEGMENT_FILES_DEFAULT;
    private JournalFiles files = JournalFiles.REAL;

    private Builder() {}

    public Builder directory(Path directory) {
      this.directory = directory;
      return this;
    }

    public Builder name(String name) {
      this.name = name;
      return this;
    }

    public Builder segmentSizeBytes(int segmentSizeBytes) {
      this.segmentSizeBytes = segmentSizeBytes;
      return this;
    }

    public Builder indexDensity(int indexDensity) {
      this.indexDensity = indexDensity;
      return this;
    }

    public Builder preallocateSegmentFiles(boolean preallocateSegmentFiles) {
      this.preallocateSegmentFiles = preallocateSegmentFiles;
      return this;
    }

    /** How the journal opens the files it writes; {@link JournalFiles#REAL} by default. */
    public Builder files(JournalFiles files) {
      this.files = Objects.requireNonNull(files, "files");
      return this;
    }

    /**
     * @throws IllegalArgumentException listing every invalid key, its value and the allowed range
     */
    public JournalConfig build() {
      List<String> violations = new ArrayList<>();
      String context = " (journal '" + name + "' in " + directory + ")";
      if (directory == null) {
        violations.add("Expected directory to be set, but was null" + context);
      }
      if (name == null || !NAME_PATTERN.matcher(name).matches()) {
        violations.add(
            "Expected name to match "
                + NAME_PATTERN.pattern()
                + ", but was "
                + (name == null ? "null" : "'" + name + "'")
                + context);
      }
      if (segmentSizeBytes < SEGMENT_SIZE_BYTES_MIN || segmentSizeBytes > SEGMENT_SIZE_BYTES_MAX) {
        violations.add(
            "Expected segmentSizeBytes to be between "
                + SEGMENT_SIZE_BYTES_MIN
                + " and "
                + SEGMENT_SIZE_BYTES_MAX
                + ", but was "
                + segmentSizeBytes
                + context);
      }
      if (indexDensity < INDEX_DENSITY_MIN || indexDensity > INDEX_DENSITY_MAX) {
        violations.add(
            "Expected indexDensity to be between "
                + INDEX_DENSITY_MIN
                + " and "
                + INDEX_DENSITY_MAX
                + ", but was "
                + indexDensity
                + context);
      }
      if (!violations.isEmpty()) {
        throw new IllegalArgumentException(String.join("; ", violations));
      }
      return new JournalConfig(this);
    }
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof JournalConfig other)) {
      return false;
    }
    return segmentSizeBytes == other.segmentSizeBytes
        && indexDensity == other.indexDensity
        && preallocateSegmentFiles == other.preallocateSegmentFiles
        && directory.equals(other.directory)
        && name.equals(other.name)
        && files.equals(other.files);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        directory, name, segmentSizeBytes, indexDensity, preallocateSegmentFiles, files);
  }
}
