package io.cairn.snapshot.store;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The checksum file of a snapshot: the size and CRC32C of every other file in it. Written last; a
 * snapshot directory without a valid one is not a snapshot. Immutable.
 *
 * <p>Format (US-ASCII text, every line ends with {@code \n}, files in name order, each once):
 *
 * <pre>
 * cairn-snapshot-checksums 1
 * &lt;crc32c: 8 lowercase hex&gt; &lt;sizeBytes: decimal&gt; &lt;file name&gt;
 * ...
 * end &lt;file count: decimal&gt; &lt;crc32c of every byte before this line: 8 lowercase hex&gt;
 * </pre>
 *
 * <p>The trailer makes a torn or damaged checksum file detectable: {@link #decode(byte[])} rejects
 * anything but exactly this shape. The CRC32C of the whole file's content is the snapshot's
 * whole-snapshot checksum (sent with every replication chunk).
 */
public final class ChecksumFile {

  /** The first line, with the format version. */
  public static final String HEADER = "cairn-snapshot-checksums 1";

  private static final String TRAILER = "end ";

  private final SortedMap<String, Entry> entries;

  /**
   * The size and CRC32C of one file.
   *
   * @param sizeBytes at least 0
   * @param crc32c unsigned, in [0, 2^32)
   */
  public record Entry(long sizeBytes, long crc32c) {
    public Entry {
      if (sizeBytes < 0 || crc32c < 0 || crc32c > 0xFFFF_FFFFL) {
        throw new IllegalArgumentException(
            "Expected sizeBytes >= 0 and crc32c in [0, 2^32), but was "
                + sizeBytes
                + " and "
                + crc32c
                + " (checksum file entry)");
      }
    }

    /** "N bytes with CRC32C xxxxxxxx", as error messages show it. */
    public String describe() {
      return sizeBytes + " bytes with CRC32C " + hex(crc32c);
    }
  }

  /**
   * @param entries by file name; every name must be a {@linkplain SnapshotLayout#isValidFileName
   *     valid file name} other than the checksum file's own
   */
  public ChecksumFile(Map<String, Entry> entries) {
    TreeMap<String, Entry> copy = new TreeMap<>();
    entries.forEach(
        (name, entry) -> {
          if (!SnapshotLayout.isValidFileName(name) || SnapshotLayout.CHECKSUM_FILE.equals(name)) {
            throw new IllegalArgumentException(
                "Expected a snapshot file name of [A-Za-z0-9._-] other than "
                    + SnapshotLayout.CHECKSUM_FILE
                    + ", but was '"
                    + name
                    + "'");
          }
          copy.put(name, Objects.requireNonNull(entry, name));
        });
    this.entries = Collections.unmodifiableSortedMap(copy);
  }

  /** Every listed file, in name order. */
  public SortedMap<String, Entry> entries() {
    return entries;
  }

  /** The file's content. */
  public byte[] encode() {
    StringBuilder text = new StringBuilder(HEADER).append('\n');
    entries.forEach(
        (name, entry) ->
            text.append(hex(entry.crc32c()))
                .append(' ')
                .append(entry.sizeBytes())
                .append(' ')
                .append(name)
                .append('\n'));
    byte[] body = text.toString().getBytes(StandardCharsets.US_ASCII);
    String trailer = TRAILER + entries.size() + " " + hex(crc32c(body)) + "\n";
    byte[] tail = trailer.getBytes(StandardCharsets.US_ASCII);
    byte[] all = new byte[body.length + tail.length];
    System.arraycopy(body, 0, all, 0, body.length);
    System.arraycopy(tail, 0, all, body.length, tail.length);
    return all;
  }

  /**
   * Parses a checksum file's content.
   *
   * @throws IllegalArgumentException saying what is wrong, if {@code content} is not exactly a
   *     checksum file (torn, damaged, or another format)
   */
  public static ChecksumFile decode(byte[] content) {
    String text = new String(content, StandardCharsets.US_ASCII);
    if (!text.endsWith("\n")) {
      throw invalid("it does not end with a line break (torn?)");
    }
    String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
    if (lines.length < 2 || !lines[0].equals(HEADER)) {
      throw invalid("it does not start with '" + HEADER + "' and end with a trailer");
    }
    String trailer = lines[lines.length - 1];
    int bodyLength = text.length() - trailer.length() - 1;
    String[] trailerParts = trailer.split(" ", -1);
    if (trailerParts.length != 3 || !trailer.startsWith(TRAILER)) {
      throw invalid("its last line is not 'end <count> <crc32c>' (torn?)");
    }
    long expectedCrc = parseHex(trailerParts[2]);
    long actualCrc = crc32c(java.util.Arrays.copyOf(content, bodyLength));
    if (expectedCrc != actualCrc) {
      throw invalid(
          "its trailer says CRC32C " + trailerParts[2] + " but its lines have " + hex(actualCrc));
    }
    TreeMap<String, Entry> entries = new TreeMap<>();
    String previous = null;
    for (int i = 1; i < lines.length - 1; i++) {
      String[] parts = lines[i].split(" ", -1);
      if (parts.length != 3) {
        throw invalid("line " + (i + 1) + " is not '<crc32c> <sizeBytes> <name>'");
      }
      String name = parts[2];
      if (!SnapshotLayout.isValidFileName(name) || SnapshotLayout.CHECKSUM_FILE.equals(name)) {
        throw invalid("line " + (i + 1) + " names an invalid file '" + name + "'");
      }
      if (previous != null && previous.compareTo(name) >= 0) {
        throw invalid("line " + (i + 1) + " is not in name order or repeats '" + name + "'");
      }
      previous = name;
      entries.put(name, new Entry(parseSize(parts[1]), parseHex(parts[0])));
    }
    if (!trailerParts[1].equals(Integer.toString(entries.size()))) {
      throw invalid(
          "its trailer counts " + trailerParts[1] + " files but it lists " + entries.size());
    }
    return new ChecksumFile(entries);
  }

  /** CRC32C of {@code bytes}, unsigned. */
  public static long crc32c(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length);
    return crc.getValue();
  }

  /** 8 lowercase hex digits. */
  public static String hex(long crc32c) {
    return String.format("%08x", crc32c);
  }

  private static long parseHex(String text) {
    if (text.length() != 8) {
      throw invalid("'" + text + "' is not a CRC32C of 8 hex digits");
    }
    for (int i = 0; i < 8; i++) {
      char c = text.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        throw invalid("'" + text + "' is not a CRC32C of 8 lowercase hex digits");
      }
    }
    return Long.parseLong(text, 16);
  }

  private static long parseSize(String text) {
    if (text.isEmpty()
        || text.length() > 18
        || !text.chars().allMatch(c -> c >= '0' && c <= '9')
        || (text.length() > 1 && text.charAt(0) == '0')) {
      throw invalid("'" + text + "' is not a size in bytes");
    }
    return Long.parseLong(text);
  }

  private static IllegalArgumentException invalid(String why) {
    return new IllegalArgumentException("Expected a valid snapshot checksum file, but " + why);
  }

  @Override
  public boolean equals(Object o) {
    return this == o || (o instanceof ChecksumFile other && entries.equals(other.entries));
  }

  @Override
  public int hashCode() {
    return entries.hashCode();
  }

  @Override
  public String toString() {
    return "ChecksumFile" + entries;
  }
}
